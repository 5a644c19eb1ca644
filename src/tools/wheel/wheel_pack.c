/*
 * wheel_pack.c - the `onnxruntime` package tree of a build into a wheel.
 *
 * The tree's files go in as they are (regular files only, in name order,
 * __pycache__ left out), then what the wheel says of itself: the
 * package's build_and_package_info.py (as ONNX Runtime's setup.py writes
 * it), and NAME.dist-info/ with METADATA, WHEEL, ortkit.json, variant.json
 * and RECORD last.  The platform tag is computed from what the ELF files
 * were measured to need (wheel_tag.c).  Times are fixed, so the same tree
 * makes the same bytes.
 */
#include "wheel_internal.h"

#include "abi.h"
#include "elf_reader.h"

#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

ORTKIT__ABI_STRUCT(pack_abi, ortkit_wheel_pack_options, "wheel pack options",
                   "ORTKIT_WHEEL_PACK_OPTIONS_INIT", ORTKIT_WHEEL_PACK_OPTIONS_VERSION,
                   sizeof(ortkit_wheel_pack_options));

/* 1980-01-02: the zip format's first day, and a time every tool can write. */
#define WHEEL_MTIME 315619200

typedef struct packer {
    struct archive *a;
    const char *tmp;
    ortkit__strv record; /* RECORD's lines */
    ortkit__sha256_ctx h;
    uint64_t size;
} packer;

/* ---- the tree ----------------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file under dir/rel, as paths relative to dir's parent
 * ("onnxruntime/capi/x.so").  A link or any other kind of file is refused. */
static int walk(ortkit__strv *files, const char *root, const char *rel, int depth)
{
    char path[PATH_MAX];
    int rc = ortkit__pathf(path, sizeof path, "%s/%s", root, rel);
    if (rc)
        return rc;
    if (depth > 32)
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%s': directories nested too deep", path);
    DIR *d = opendir(path);
    if (!d)
        return ortkit__error_set(ORTKIT_E_IO, "cannot read the package directory '%s'", path);
    for (struct dirent *de; (de = readdir(d));) {
        const char *n = de->d_name;
        size_t len = strlen(n);
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "__pycache__") ||
            (len > 4 && !strcmp(n + len - 4, ".pyc")))
            continue;
        char sub[PATH_MAX], full[PATH_MAX];
        struct stat st;
        if ((rc = ortkit__pathf(sub, sizeof sub, "%s/%s", rel, n)) ||
            (rc = ortkit__pathf(full, sizeof full, "%s/%s", root, sub)))
            break;
        if (lstat(full, &st) != 0) {
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot stat '%s'", full);
            break;
        }
        if (S_ISDIR(st.st_mode))
            rc = walk(files, root, sub, depth + 1);
        else if (S_ISREG(st.st_mode))
            rc = strlen(sub) >= WHEEL_PATH_MAX
                     ? ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s...': path too long", sub)
                     : ortkit__strv_push(files, sub);
        else
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' is %s: a wheel holds regular files "
                                   "only", full, ortkit__file_kind(st.st_mode));
        if (rc)
            break;
    }
    closedir(d);
    return rc;
}

/* ---- writing ------------------------------------------------------------------------- */

static int entry_header(packer *p, const char *name, uint64_t size, unsigned mode)
{
    struct archive_entry *e = archive_entry_new();
    if (!e)
        return ortkit__error_nomem();
    archive_entry_set_pathname(e, name);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, mode);
    archive_entry_set_size(e, (la_int64_t)size);
    archive_entry_set_mtime(e, WHEEL_MTIME, 0);
    int ok = archive_write_header(p->a, e) == ARCHIVE_OK;
    archive_entry_free(e);
    return ok ? ORTKIT_OK
              : ortkit__error_set(ORTKIT_E_IO, "cannot write '%s' into %s: %s", name, p->tmp,
                                  archive_error_string(p->a));
}

static int record_line(packer *p, const char *name, const unsigned char md[32], uint64_t size)
{
    char hash[WHEEL_RECORD_HASH];
    ortkit__wheel_record_hash(hash, md);
    /* RECORD is CSV: no name here holds a comma or a quote (the tree's
     * names are checked by ortkit_wheel_open as it reads them back). */
    if (strpbrk(name, ",\"\r\n"))
        return ortkit__error_set(ORTKIT_E_FORMAT, "'%.200s': a name with a comma or a quote", name);
    return ortkit__strv_pushf(&p->record, "%s,%s,%llu", name, hash, (unsigned long long)size);
}

static int add_text(packer *p, const char *name, const char *text)
{
    size_t n = strlen(text);
    unsigned char md[32];
    int rc = entry_header(p, name, n, 0644);
    if (rc)
        return rc;
    if (archive_write_data(p->a, text, n) != (la_ssize_t)n)
        return ortkit__error_set(ORTKIT_E_IO, "cannot write '%s' into %s: %s", name, p->tmp,
                                 archive_error_string(p->a));
    if ((rc = ortkit__sha256(md, text, n)))
        return rc;
    return record_line(p, name, md, n);
}

static int file_block(void *arg, const void *block, size_t n)
{
    packer *p = arg;
    ortkit__sha256_update(&p->h, block, n);
    p->size += n;
    if (archive_write_data(p->a, block, n) != (la_ssize_t)n)
        return ortkit__error_set(ORTKIT_E_IO, "cannot write into %s: %s", p->tmp,
                                 archive_error_string(p->a));
    return ORTKIT_OK;
}

static int add_file(packer *p, const char *path, const char *name)
{
    int fd = -1;
    struct stat st;
    int rc = ortkit__file_open(&fd, path, O_RDONLY, &st);
    if (rc)
        return rc;
    unsigned char md[32];
    char *buf = malloc(1 << 20);
    p->size = 0;
    if (!buf)
        rc = ortkit__error_nomem();
    else if (!(rc = entry_header(p, name, (uint64_t)st.st_size, (st.st_mode & 0111) ? 0755 : 0644)) &&
             !(rc = ortkit__sha256_init(&p->h))) {
        rc = ortkit__file_each_block(fd, buf, 1 << 20, path, file_block, p);
        if (!rc && p->size != (uint64_t)st.st_size)
            rc = ortkit__error_set(ORTKIT_E_IO, "'%s' changed while it was packed", path);
        if (rc)
            ortkit__sha256_discard(&p->h);
        else if (!(rc = ortkit__sha256_final(&p->h, md)))
            rc = record_line(p, name, md, p->size);
    }
    free(buf);
    close(fd);
    return rc;
}

/* ---- what the wheel says of itself ----------------------------------------------------- */

typedef struct wheel_names {
    char python_tag[16], platform[64], why[512], label[64], short_label[17];
    char version[96], dist_info[160], file[320];
    int major, minor;
} wheel_names;

/* The variant label of variant.json: the local label when it is at most 16
 * characters, else CUDA's version without its dot ("cu130.90.avx512"). */
static void short_label(char out[17], const ortkit_manifest *m, const char *label)
{
    if (strlen(label) <= 16 || !m->cuda) {
        snprintf(out, 17, "%.16s", label);
        return;
    }
    const char *isa = strrchr(label, '.');
    snprintf(out, 17, "cu%d%d.%d%s", m->cuda / 1000, (m->cuda % 1000) / 10, m->sm, isa ? isa : "");
}

static char *metadata_text(const ortkit_manifest *m, const wheel_names *w, const ortkit_variant *v)
{
    char *text = NULL;
    const char *flags = v && v->cpu_flags[0] ? v->cpu_flags : "no CPU flags";
    /* numpy is what `import onnxruntime` needs; ONNX Runtime's other
     * requirements serve its tools (quantisation, transformers), so they
     * are an extra: a plain install needs nothing but numpy. */
    if (asprintf(&text,
                 "Metadata-Version: 2.1\n"
                 "Name: " WHEEL_PACKAGE "\n"
                 "Version: %s\n"
                 "Summary: ONNX Runtime %s built by ortkit for %s (%s)\n"
                 "License: MIT\n"
                 "Requires-Python: ==%d.%d.*\n"
                 "Requires-Dist: numpy>=1.21.6\n"
                 "Provides-Extra: tools\n"
                 "Requires-Dist: coloredlogs; extra == \"tools\"\n"
                 "Requires-Dist: flatbuffers; extra == \"tools\"\n"
                 "Requires-Dist: packaging; extra == \"tools\"\n"
                 "Requires-Dist: protobuf; extra == \"tools\"\n"
                 "Requires-Dist: sympy; extra == \"tools\"\n"
                 "\n"
                 "ONNX Runtime's own Python package, built from its source for the variant %s\n"
                 "(%s).  Its facts (CPU flags, GPU code, what its libraries need of a host,\n"
                 "each file's SHA-256) are in ortkit.json beside this file.\n",
                 w->version, m->ort_version, m->variant, flags, w->major, w->minor, m->variant,
                 flags) < 0)
        return NULL;
    return text;
}

static char *facts_text(const ortkit_manifest *m, const wheel_names *w, const ortkit__wheel_needs *needs,
                        const char *bundle_json, size_t bundle_size, const char *numpy_headers)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddNumberToObject(root, "schema", WHEEL_FACTS_SCHEMA);
    cJSON_AddStringToObject(root, "created_by", "ortkit " ORTKIT_VERSION_STRING);
    cJSON *wh = cJSON_AddObjectToObject(root, "wheel");
    ortkit__json_add_strings(wh, "name", WHEEL_PACKAGE, "version", w->version, "variant", m->variant,
                             "onnxruntime", m->ort_version, NULL);
    char py[16];
    snprintf(py, sizeof py, "%d.%d", w->major, w->minor);
    cJSON_AddStringToObject(wh, "python", py);
    ortkit__json_add_strings(wh, "python_tag", w->python_tag, "abi_tag", w->python_tag,
                             "platform_tag", w->platform, "platform_tag_from", w->why, NULL);
    cJSON_AddItemToObject(wh, "numpy_headers", numpy_headers ? cJSON_CreateString(numpy_headers)
                                                             : cJSON_CreateNull());
    cJSON *n = cJSON_AddObjectToObject(root, "needs");
    ortkit__json_add_strings(n, "glibc", needs->glibc, "glibcxx", needs->glibcxx, "cxxabi",
                             needs->cxxabi, NULL);
    cJSON_AddItemToObject(n, "libraries", cJSON_CreateStringArray((const char *const *)needs->libraries.v,
                                                                  (int)needs->libraries.n));
    cJSON_AddBoolToObject(n, "exec_stack", needs->exec_stack);
    cJSON_AddItemToObject(root, "elf", needs->elf ? cJSON_Duplicate(needs->elf, 1) : cJSON_CreateArray());
    cJSON *b = ortkit__wheel_bundle_facts(bundle_json, bundle_size, needs);
    if (!b) {
        cJSON_Delete(root);
        return NULL;
    }
    cJSON_AddItemToObject(root, "bundle", b);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

static int names_for(wheel_names *w, const ortkit_manifest *m, const ortkit__wheel_needs *needs,
                     const char *python)
{
    int rc;
    if ((rc = ortkit__wheel_python_tag(w->python_tag, sizeof w->python_tag, python, &w->major,
                                       &w->minor)) ||
        (rc = ortkit_wheel_platform_tag(w->platform, sizeof w->platform, m->arch, needs->glibc,
                                        needs->glibcxx, needs->cxxabi, w->why, sizeof w->why)) ||
        (rc = ortkit_wheel_local_label(w->label, sizeof w->label, m->variant)))
        return rc;
    short_label(w->short_label, m, w->label);
    if ((size_t)snprintf(w->version, sizeof w->version, "%s+%s", m->ort_version, w->label) >= sizeof w->version ||
        (size_t)snprintf(w->dist_info, sizeof w->dist_info, WHEEL_PACKAGE "-%s.dist-info", w->version) >=
            sizeof w->dist_info ||
        (size_t)snprintf(w->file, sizeof w->file, WHEEL_PACKAGE "-%s-%s-%s-%s.whl", w->version,
                         w->python_tag, w->python_tag, w->platform) >= sizeof w->file)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "wheel names too long for %s", m->variant);
    return ORTKIT_OK;
}

/* ---- the wheel --------------------------------------------------------------------- */

static int measure(ortkit__wheel_needs *needs, const char *parent, const ortkit__strv *files,
                   ortkit_arch arch)
{
    ortkit__strv own = {0};
    int rc = ORTKIT_OK;
    for (size_t i = 0; i < files->n && !rc; i++) {
        char path[PATH_MAX];
        if ((rc = ortkit__pathf(path, sizeof path, "%s/%s", parent, files->v[i])))
            break;
        int is = ortkit__elf_is(path);
        if (is < 0)
            rc = ortkit__error_set(ORTKIT_E_IO, "cannot read '%s'", path);
        else if (is && !(rc = ortkit__wheel_needs_add(needs, path, files->v[i], arch)))
            rc = ortkit__strv_push(&own, strrchr(files->v[i], '/') + 1);
    }
    if (!rc)
        ortkit__wheel_needs_own(needs, &own);
    ortkit__strv_free(&own);
    return rc;
}

static int write_wheel(packer *p, const char *parent, const ortkit__strv *files, const wheel_names *w,
                       const char *info_py, const char *metadata, const char *facts,
                       const char *variants)
{
    int rc = ORTKIT_OK;
    char name[WHEEL_PATH_MAX + 200], wheel_text[256];
    for (size_t i = 0; i < files->n && !rc; i++) {
        char path[PATH_MAX];
        if (!(rc = ortkit__pathf(path, sizeof path, "%s/%s", parent, files->v[i])))
            rc = add_file(p, path, files->v[i]);
    }
    if (!rc && info_py)
        rc = add_text(p, WHEEL_PACKAGE "/capi/build_and_package_info.py", info_py);
    snprintf(wheel_text, sizeof wheel_text,
             "Wheel-Version: 1.0\nGenerator: ortkit " ORTKIT_VERSION_STRING
             "\nRoot-Is-Purelib: false\nTag: %s-%s-%s\n", w->python_tag, w->python_tag, w->platform);
    const char *meta_names[] = {"METADATA", "WHEEL", WHEEL_FACTS, WHEEL_VARIANTS};
    const char *meta_texts[] = {metadata, wheel_text, facts, variants};
    for (size_t i = 0; i < 4 && !rc; i++) {
        snprintf(name, sizeof name, "%s/%s", w->dist_info, meta_names[i]);
        rc = add_text(p, name, meta_texts[i]);
    }
    if (rc)
        return rc;
    snprintf(name, sizeof name, "%s/RECORD", w->dist_info);
    size_t len = 1;
    for (size_t i = 0; i < p->record.n; i++)
        len += strlen(p->record.v[i]) + 1;
    len += strlen(name) + 4;
    char *record = malloc(len), *at = record;
    if (!record)
        return ortkit__error_nomem();
    for (size_t i = 0; i < p->record.n; i++)
        at += sprintf(at, "%s\n", p->record.v[i]);
    sprintf(at, "%s,,\n", name);
    if (!(rc = entry_header(p, name, strlen(record), 0644)) &&
        archive_write_data(p->a, record, strlen(record)) != (la_ssize_t)strlen(record))
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write RECORD into %s: %s", p->tmp,
                               archive_error_string(p->a));
    free(record);
    return rc;
}

/* build_and_package_info.py for a package built without one: its name,
 * its version and the CUDA it was built with; NULL when memory runs out. */
static char *package_info(const ortkit_manifest *m)
{
    char cuda_line[64] = "", *info = NULL;
    if (m->cuda || m->gpu_cuda) {
        int c = m->cuda ? m->cuda : m->gpu_cuda;
        snprintf(cuda_line, sizeof cuda_line, "cuda_version = '%d.%d'\n", c / 1000, (c % 1000) / 10);
    }
    if (asprintf(&info, "package_name = '" WHEEL_PACKAGE "'\n__version__ = '%s'\n%s",
                 m->ort_version, cuda_line) < 0)
        return NULL;
    return info;
}

int ortkit_wheel_pack(char **path, const char *package_dir, const ortkit_wheel_pack_options *opts)
{
    if (path)
        *path = NULL;
    ortkit_wheel_pack_options oo = ORTKIT_WHEEL_PACK_OPTIONS_INIT, *o = &oo;
    if (opts && ortkit__abi_read(&pack_abi, &oo, opts))
        return ORTKIT_E_INVALID_ARG;
    if (!path || !package_dir || !opts || !o->bundle || !o->python || !o->into)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_pack: a package directory, "
                                 "a bundle, a Python version and a destination are needed");
    int rc;
    ortkit_bundle *b = NULL;
    char *parent = NULL, *bundle_json = NULL, *metadata = NULL, *facts = NULL, *variants = NULL;
    char *info_py = NULL, manifest[PATH_MAX], tmp[PATH_MAX] = "", out[PATH_MAX];
    size_t bundle_size = 0;
    ortkit__strv files = {0};
    ortkit__wheel_needs needs;
    memset(&needs, 0, sizeof needs);
    packer p;
    memset(&p, 0, sizeof p);
    wheel_names w;
    memset(&w, 0, sizeof w);

    const char *base = ortkit__path_last(package_dir);
    if (strcmp(base, WHEEL_PACKAGE) != 0)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a directory named "
                                 WHEEL_PACKAGE ": the package tree a build with Python writes "
                                 "(BUILD/" WHEEL_PACKAGE ")", package_dir);
    if ((rc = ortkit_bundle_open(&b, o->bundle)))
        return ortkit__error_set(rc, "%s", ortkit_error_last());
    const ortkit_manifest *m = ortkit_bundle_manifest(b);
    if ((rc = ortkit__path_absolute(&parent, package_dir)))
        goto cleanup;
    *strrchr(parent, '/') = '\0';
    if ((rc = walk(&files, parent, WHEEL_PACKAGE, 0)))
        goto cleanup;
    if (files.n > 1)
        qsort(files.v, files.n, sizeof *files.v, by_name);
    int has_ext = 0, has_info = 0;
    for (size_t i = 0; i < files.n; i++) {
        has_ext |= !strcmp(files.v[i], WHEEL_PACKAGE "/capi/onnxruntime_pybind11_state.so");
        has_info |= !strcmp(files.v[i], WHEEL_PACKAGE "/capi/build_and_package_info.py");
    }
    if (!has_ext) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "'%s' has no capi/onnxruntime_pybind11_state.so: "
                               "not the package of a build with Python (ortkit build --python)",
                               package_dir);
        goto cleanup;
    }
    if ((rc = measure(&needs, parent, &files, m->arch)) || (rc = names_for(&w, m, &needs, o->python)))
        goto cleanup;
    if ((rc = ortkit__pathf(manifest, sizeof manifest, "%s/manifest.json", m->dir)) ||
        (rc = ortkit__file_read(&bundle_json, &bundle_size, manifest, WHEEL_MAX_META)))
        goto cleanup;
    const ortkit_variant *v = NULL;
    (void)ortkit_variant_parse(&v, m->variant);
    if (!has_info && !(info_py = package_info(m))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if (!(metadata = metadata_text(m, &w, v)) ||
        !(facts = facts_text(m, &w, &needs, bundle_json, bundle_size, o->numpy_headers)) ||
        !(variants = ortkit__wheel_variant_json(m, w.short_label))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if ((rc = ortkit__mkdirs(o->into)) ||
        (rc = ortkit__pathf(out, sizeof out, "%s/%s", o->into, w.file)) ||
        (rc = ortkit__pathf(tmp, sizeof tmp, "%s/.%s.%ld.part", o->into, w.file, (long)getpid())))
        goto cleanup;
    p.tmp = tmp;
    if (!(p.a = archive_write_new()) || archive_write_set_format_zip(p.a) != ARCHIVE_OK ||
        archive_write_zip_set_compression_deflate(p.a) != ARCHIVE_OK ||
        archive_write_open_filename(p.a, tmp) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write %s: %s", tmp,
                               p.a ? archive_error_string(p.a) : "out of memory");
        goto cleanup;
    }
    rc = write_wheel(&p, parent, &files, &w, info_py, metadata, facts, variants);
    if (archive_write_close(p.a) != ARCHIVE_OK && !rc)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write %s: %s", tmp, archive_error_string(p.a));
    if (rc)
        goto cleanup;
    /* Read back with every check a user's open makes before it takes the place. */
    ortkit_wheel *check = NULL;
    if ((rc = ortkit__wheel_open_as(&check, tmp, w.file))) {
        rc = ortkit__error_wrap(rc, "the wheel made for %s does not check", m->variant);
        goto cleanup;
    }
    ortkit_wheel_free(check);
    if (rename(tmp, out) != 0) {
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot rename %s to %s", tmp, out);
        goto cleanup;
    }
    tmp[0] = '\0';
    if (!(*path = strdup(out)))
        rc = ortkit__error_nomem();
cleanup:
    if (p.a)
        archive_write_free(p.a);
    if (tmp[0])
        unlink(tmp);
    ortkit__strv_free(&p.record);
    ortkit__strv_free(&files);
    ortkit__wheel_needs_free(&needs);
    free(parent);
    free(bundle_json);
    free(metadata);
    free(facts);
    free(variants);
    free(info_py);
    ortkit_bundle_free(b);
    return rc;
}
