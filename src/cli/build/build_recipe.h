/* build_recipe.h - `ortkit build --recipe NAME`: a file of build options for
 * one kind of build environment (build_recipe.c). */
#ifndef ORTKIT_CLI_BUILD_RECIPE_H
#define ORTKIT_CLI_BUILD_RECIPE_H

#include "opt.h"
#include "util.h"

/*
 * If argv names --recipe NAME (or --recipe=NAME), *out gets a new argument
 * vector: argv[0], the recipe's options, then argv[1..] without --recipe;
 * otherwise *out stays empty.  NAME is a path (it holds a '/') or a recipe
 * installed with ortkit (share/ortkit/recipes/NAME.recipe, found from where
 * the tool lies).  A line is "OPTION VALUE" or "OPTION" (a long option of
 * opts without its "--"; "D KEY=VALUE" for -D); "#" starts a comment.
 * @DATADIR@ in a value is ortkit's share/ortkit directory, @VERSION@ the
 * ONNX Runtime version of the --source tree.  Options the command line
 * gives after them win over the recipe's (lists add up).  Returns 0, or
 * the exit status after saying why.
 */
int build_recipe_expand(ortkit__strv *out, const cli_opt *opts, int argc, char **argv);

#endif
