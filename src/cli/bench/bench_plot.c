/*
 * bench_plot.c - `ortkit bench --plot FILE.svg`: the latency distribution as
 * a histogram (top) and a cumulative distribution (bottom), one colour per
 * side, written as plain SVG so that no graphics library is needed.
 */
#include "bench.h"
#include "cli.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define W 820.0
#define H 640.0
#define LEFT 78.0
#define RIGHT 24.0
#define HIST_TOP 110.0
#define HIST_BOTTOM 330.0
#define CDF_TOP 390.0
#define CDF_BOTTOM 590.0
#define BINS 60
#define CDF_POINTS 600

static const char *const colours[2] = {"#1f66b0", "#d95f02"};

typedef struct svg {
    char *buf;
    size_t len, cap;
    int failed;
} svg;

static void put(svg *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(svg *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(s->buf ? s->buf + s->len : NULL, s->buf ? s->cap - s->len : 0, fmt, ap);
    va_end(ap);
    if (n >= 0 && s->len + (size_t)n >= s->cap) {
        if (ortkit__array_reserve(&s->buf, &s->cap, s->len + (size_t)n + 1, 1, 16384)) {
            s->failed = 1;
            va_end(ap2);
            return;
        }
        n = vsnprintf(s->buf + s->len, s->cap - s->len, fmt, ap2);
    }
    va_end(ap2);
    if (n < 0)
        s->failed = 1;
    else
        s->len += (size_t)n;
}

/* Text as XML character data. */
static void put_text(svg *s, const char *text)
{
    for (; *text; text++) {
        switch (*text) {
        case '&': put(s, "&amp;"); break;
        case '<': put(s, "&lt;"); break;
        case '>': put(s, "&gt;"); break;
        case '"': put(s, "&quot;"); break;
        default: put(s, "%c", *text);
        }
    }
}

/* A tick step of 1, 2 or 5 times a power of ten giving about `want` ticks. */
static double nice_step(double range, int want)
{
    double raw = range / want;
    double p = pow(10, floor(log10(raw)));
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The unit for axis labels: microseconds, milliseconds or seconds. */
static void time_unit(double hi, double *scale, const char **name)
{
    if (hi < 1e-3) {
        *scale = 1e6;
        *name = "us";
    } else if (hi < 1) {
        *scale = 1e3;
        *name = "ms";
    } else {
        *scale = 1;
        *name = "s";
    }
}

typedef struct axis {
    double lo, hi;  /* latency range shown, seconds */
    double scale;   /* seconds to display unit */
    const char *unit;
} axis;

static double x_of(const axis *ax, double v)
{
    return LEFT + (v - ax->lo) / (ax->hi - ax->lo) * (W - LEFT - RIGHT);
}

static void x_axis(svg *s, const axis *ax, double top, double bottom)
{
    double step = nice_step((ax->hi - ax->lo) * ax->scale, 8) / ax->scale;
    for (double v = ceil(ax->lo / step) * step; v <= ax->hi + step * 1e-9; v += step) {
        double x = x_of(ax, v);
        put(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", x, top, x, bottom);
        double label = v * ax->scale;
        if (fabs(label) < step * ax->scale * 1e-6) /* not "-1e-17" at zero */
            label = 0;
        put(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", x, bottom + 16, label);
    }
    put(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">latency (%s)</text>\n", (LEFT + W - RIGHT) / 2,
        bottom + 34, ax->unit);
    put(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" stroke=\"#888\"/>\n", LEFT,
        top, W - LEFT - RIGHT, bottom - top);
}

static void y_axis(svg *s, double top, double bottom, double max, const char *label)
{
    double step = nice_step(max, 5);
    for (double v = 0; v <= max + step * 1e-9; v += step) {
        double y = bottom - v / max * (bottom - top);
        put(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>\n", LEFT, y, W - RIGHT, y);
        put(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g%%</text>\n", LEFT - 6, y + 4, v);
    }
    put(s, "<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\">%s</text>\n", 18.0,
        (top + bottom) / 2, label);
}

static void histogram(svg *s, const bench_config *cfg, const axis *ax)
{
    size_t counts[2][BINS];
    double peak = 0;
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        size_t above;
        size_t top = ortkit__stats_histogram(sd->lat, sd->n_lat, ax->lo, ax->hi, counts[i], BINS, &above);
        double pct = sd->n_lat ? 100.0 * (double)top / (double)sd->n_lat : 0;
        peak = pct > peak ? pct : peak;
    }
    if (peak <= 0)
        peak = 1;
    double ymax = ceil(peak / nice_step(peak, 5)) * nice_step(peak, 5);
    y_axis(s, HIST_TOP, HIST_BOTTOM, ymax, "runs per bin");
    double bw = (W - LEFT - RIGHT) / BINS;
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        put(s, "<path fill=\"%s\" fill-opacity=\"0.28\" stroke=\"%s\" stroke-width=\"1.5\" d=\"M%.1f %.1f", colours[i],
            colours[i], LEFT, HIST_BOTTOM);
        for (size_t b = 0; b < BINS; b++) {
            double pct = sd->n_lat ? 100.0 * (double)counts[i][b] / (double)sd->n_lat : 0;
            double y = HIST_BOTTOM - pct / ymax * (HIST_BOTTOM - HIST_TOP);
            put(s, " L%.1f %.1f L%.1f %.1f", LEFT + bw * (double)b, y, LEFT + bw * (double)(b + 1), y);
        }
        put(s, " L%.1f %.1f Z\"/>\n", W - RIGHT, HIST_BOTTOM);
    }
    x_axis(s, ax, HIST_TOP, HIST_BOTTOM);
}

static void cdf(svg *s, const bench_config *cfg, const axis *ax)
{
    y_axis(s, CDF_TOP, CDF_BOTTOM, 100, "runs at or below");
    static const double marks[] = {50, 90, 99};
    for (size_t m = 0; m < 3; m++) {
        double y = CDF_BOTTOM - marks[m] / 100 * (CDF_BOTTOM - CDF_TOP);
        put(s, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n",
            LEFT, y, W - RIGHT, y);
        put(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">p%g</text>\n", W - RIGHT - 4, y + 13,
            marks[m]);
    }
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        if (!sd->n_lat)
            continue;
        put(s, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colours[i]);
        /* Evenly spaced ranks keep the file small for millions of runs. */
        size_t points = sd->n_lat < CDF_POINTS ? sd->n_lat : CDF_POINTS;
        for (size_t k = 0; k < points; k++) {
            size_t r = points > 1 ? k * (sd->n_lat - 1) / (points - 1) : 0;
            double v = sd->lat[r];
            if (v > ax->hi)
                break;
            double frac = sd->n_lat > 1 ? (double)(r + 1) / (double)sd->n_lat : 1;
            put(s, "%.1f,%.1f ", x_of(ax, v), CDF_BOTTOM - frac * (CDF_BOTTOM - CDF_TOP));
        }
        put(s, "\"/>\n");
    }
    x_axis(s, ax, CDF_TOP, CDF_BOTTOM);
}

static void legend(svg *s, const bench_config *cfg, const axis *ax)
{
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        double y = 62 + 20 * (double)i;
        char p50[32], p99[32];
        ortkit__human_duration3(p50, sizeof p50, sd->stats.p50);
        ortkit__human_duration3(p99, sizeof p99, sd->stats.p99);
        put(s, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", LEFT, y - 11, colours[i]);
        put(s, "<text x=\"%.1f\" y=\"%.1f\">", LEFT + 20, y);
        if (cfg->n_sides == 2)
            put(s, "%c: ", i ? 'B' : 'A');
        put_text(s, sd->label);
        put(s, ": %zu runs, p50 %s, p99 %s</text>\n", sd->n_lat, p50, p99);
    }
    size_t beyond = 0;
    double max = 0;
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        for (size_t k = sd->n_lat; k > 0 && sd->lat[k - 1] > ax->hi; k--)
            beyond++;
        max = sd->stats.max > max ? sd->stats.max : max;
    }
    if (beyond) {
        char m[32];
        ortkit__human_duration3(m, sizeof m, max);
        put(s, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"#666\">%zu slowest run%s off the axis "
               "(max %s)</text>\n", W - RIGHT, HIST_TOP - 8, beyond, beyond == 1 ? "" : "s", m);
    }
}

int bench_plot_svg(const bench_config *cfg, const char *path)
{
    /* The x axis spans the fastest run to the higher p99 of the sides, so
     * the rare slow run does not squash the distribution into a few bins. */
    axis ax = {INFINITY, 0, 1, "s"};
    for (size_t i = 0; i < cfg->n_sides; i++) {
        const bench_side *sd = &cfg->side[i];
        if (!sd->n_lat)
            continue;
        ax.lo = sd->lat[0] < ax.lo ? sd->lat[0] : ax.lo;
        ax.hi = sd->stats.p99 > ax.hi ? sd->stats.p99 : ax.hi;
    }
    if (!isfinite(ax.lo))
        ax.lo = 0;
    double pad = (ax.hi - ax.lo) * 0.04;
    if (!(pad > 0))
        pad = ax.hi > 0 ? ax.hi * 0.05 : 1e-6;
    ax.lo = ax.lo - pad > 0 ? ax.lo - pad : 0;
    ax.hi += pad;
    time_unit(ax.hi, &ax.scale, &ax.unit);

    svg s = {0};
    put(&s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
            "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
        W, H, W, H);
    put(&s, "<text x=\"%.1f\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Latency of ", LEFT);
    put_text(&s, ortkit__path_last(cfg->model));
    put(&s, "</text>\n<text x=\"%.1f\" y=\"44\" fill=\"#555\">%ld caller%s, %ld warm-up runs%s%s</text>\n", LEFT,
        cfg->callers, cfg->callers == 1 ? "" : "s", cfg->warmup,
        cfg->n_sides == 2 ? ", A and B in alternating blocks" : "",
        cfg->interrupted ? "; interrupted: partial figures" : "");
    legend(&s, cfg, &ax);
    histogram(&s, cfg, &ax);
    put(&s, "<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\">Cumulative distribution</text>\n", LEFT, CDF_TOP - 10);
    cdf(&s, cfg, &ax);
    put(&s, "</svg>\n");
    /* Through a temporary name beside it, renamed into place, with the mode
     * a new file gets (0666 less the umask). */
    int rc = s.failed ? cli_fail("out of memory drawing the plot")
             : ortkit__file_write_atomic(path, s.buf, s.len)
                 ? cli_fail("cannot write plot '%s': %s", path, ortkit__error_message())
                 : CLI_OK;
    free(s.buf);
    return rc;
}
