/* compare_reports.h - two `ortkit validate --json` reports, test by test (`ortkit compare`). */
#ifndef ORTKIT_CLI_COMPARE_REPORTS_H
#define ORTKIT_CLI_COMPARE_REPORTS_H

/* Whether path holds a validate report: a JSON object with "tests" and "totals". */
int compare_is_report(const char *path);
/* A against B: the totals, the tests B passes that A does not (worse) and
 * those A passes that B does not (better).  CLI_OK, CLI_FAIL when one is
 * worse, CLI_USAGE when a report cannot be read. */
int compare_reports(const char *a, const char *b, int json);

#endif
