/* options.c - what follows from a build's options (one struct, bound by
 * `ortkit build`'s option table) and their lifetime. */
#include "builder_options.h"

const char *ortkit__builder_chain(const ortkit__builder_options *o)
{
    if (o->ccache && o->distcc_hosts)
        return "ccache+distcc";
    return o->ccache ? "ccache" : o->distcc_hosts ? "distcc" : NULL;
}

const ortkit__builder_cache_remote *ortkit__builder_remote(const ortkit__builder_options *o)
{
    return o->has_cache_remote ? &o->cache_remote : NULL;
}

void ortkit__builder_options_free(ortkit__builder_options *o)
{
    ortkit__strv_free(&o->models);
    ortkit__strv_free(&o->deps);
    ortkit__strv_free(&o->accept_versions);
    ortkit__strv_free(&o->defines);
    ortkit__strv_free(&o->pythons);
}
