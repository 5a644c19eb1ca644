/*
 * wheel_read.c - a wheel opened, and every claim in it checked before
 * anything trusts it.
 *
 * The zip is read through its central directory (what pip installs from),
 * each member streamed once: its SHA-256 and size taken, its name checked
 * (relative, inside, no "..", no link, no device, no duplicate), the
 * dist-info files kept, each ELF file written to a private directory and
 * read there for what it needs.  Then RECORD is held against what was read,
 * WHEEL and METADATA against the file name, and ortkit.json's needs
 * against the measured ones: a wheel that understates them, or whose
 * platform tag its needs do not earn, is refused.
 */
#include "wheel_internal.h"

#include <archive.h>
#include <archive_entry.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct member {
    char *name;
    char hash[WHEEL_RECORD_HASH];
    uint64_t size;
    int listed;
} member;

typedef struct reader {
    const char *path, *file;
    ortkit__wheel_name fn;
    char dist_info[200];
    member *m;
    size_t n, cap;
    uint64_t total;
    char *record, *wheel, *metadata, *facts;
    size_t record_size, wheel_size, metadata_size, facts_size;
    char elf_dir[PATH_MAX];
    ortkit__strv elf_paths, elf_names;
} reader;

static int fail(const reader *r, const char *fmt, const char *detail)
{
    return ortkit__error_set(ORTKIT_E_FORMAT, "wheel '%s': %s%s", r->file, fmt, detail ? detail : "");
}

/* A member name a wheel may hold: relative, no "..", ".", empty or
 * backslashed segment, printable ASCII. */
static int name_ok(const char *name)
{
    size_t n = strlen(name);
    if (!n || n >= WHEEL_PATH_MAX || name[0] == '/')
        return 0;
    for (const char *c = name; *c; c++)
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f || *c == '\\' || *c == '"' ||
            *c == ',')
            return 0;
    for (const char *seg = name; *seg;) {
        const char *end = strchr(seg, '/');
        size_t len = end ? (size_t)(end - seg) : strlen(seg);
        if (len == 0 ? end != NULL && end[1] != '\0' : (len == 1 && seg[0] == '.') ||
                                                           (len == 2 && seg[0] == '.' && seg[1] == '.'))
            return 0;
        if (!end)
            break;
        seg = end + 1;
    }
    return 1;
}

static char **keep_slot(reader *r, const char *name, size_t **size)
{
    char meta[256];
    const char *names[] = {"RECORD", "WHEEL", "METADATA", WHEEL_FACTS};
    char **slots[] = {&r->record, &r->wheel, &r->metadata, &r->facts};
    size_t *sizes[] = {&r->record_size, &r->wheel_size, &r->metadata_size, &r->facts_size};
    for (size_t i = 0; i < 4; i++) {
        snprintf(meta, sizeof meta, "%s/%s", r->dist_info, names[i]);
        if (!strcmp(name, meta)) {
            *size = sizes[i];
            return slots[i];
        }
    }
    return NULL;
}

/* One member: streamed once for its hash and size, kept or written out as it needs. */
static int read_member(reader *r, struct archive *a, const char *name, int64_t declared)
{
    size_t *keep_size = NULL;
    char **keep = keep_slot(r, name, &keep_size);
    char *buf = malloc(1 << 20), *held = NULL, elf_path[PATH_MAX] = "";
    size_t held_n = 0;
    int fd = -1, rc = ORTKIT_OK, first = 1;
    unsigned char md[32];
    ortkit__sha256_ctx h = {0};
    uint64_t size = 0;
    if (!buf || ortkit__sha256_init(&h)) {
        free(buf);
        return ortkit__error_nomem();
    }
    for (;;) {
        la_ssize_t got = archive_read_data(a, buf, 1 << 20);
        if (got < 0) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "wheel '%s': cannot read '%s': %s", r->file,
                                   name, archive_error_string(a));
            break;
        }
        if (got == 0)
            break;
        size += (uint64_t)got;
        r->total += (uint64_t)got;
        if (r->total > WHEEL_MAX_BYTES) {
            rc = fail(r, "more than 32 GiB unpacked", NULL);
            break;
        }
        ortkit__sha256_update(&h, buf, (size_t)got);
        if (first && got >= 4 && !memcmp(buf, "\177ELF", 4)) {
            if ((rc = ortkit__pathf(elf_path, sizeof elf_path, "%s/%zu.so", r->elf_dir, r->n)))
                break;
            fd = open(elf_path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd < 0) {
                rc = ortkit__error_set(ORTKIT_E_IO, "cannot write %s", elf_path);
                break;
            }
        }
        first = 0;
        if (fd >= 0 && (rc = ortkit__file_write_all(fd, buf, (size_t)got, elf_path)))
            break;
        if (keep) {
            if (held_n + (size_t)got > WHEEL_MAX_META) {
                rc = fail(r, "a dist-info file larger than 16 MiB: ", name);
                break;
            }
            char *more = realloc(held, held_n + (size_t)got + 1);
            if (!more) {
                rc = ortkit__error_nomem();
                break;
            }
            held = more;
            memcpy(held + held_n, buf, (size_t)got);
            held_n += (size_t)got;
            held[held_n] = '\0';
        }
    }
    free(buf);
    if (fd >= 0 && close(fd) != 0 && !rc)
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot write %s", elf_path);
    if (rc || ortkit__sha256_final(&h, md)) {
        if (!rc)
            ortkit__sha256_discard(&h);
        free(held);
        return rc ? rc : ortkit__error_nomem();
    }
    if (declared >= 0 && (uint64_t)declared != size) {
        free(held);
        return fail(r, "a member's size is not what the zip says: ", name);
    }
    if (keep) {
        *keep = held ? held : strdup("");
        *keep_size = held_n;
        if (!*keep)
            return ortkit__error_nomem();
    }
    if (elf_path[0] && ((rc = ortkit__strv_push(&r->elf_paths, elf_path)) ||
                        (rc = ortkit__strv_push(&r->elf_names, name))))
        return rc;
    member *mm = &r->m[r->n - 1];
    ortkit__wheel_record_hash(mm->hash, md);
    mm->size = size;
    return ORTKIT_OK;
}

static int read_zip(reader *r)
{
    struct archive *a = archive_read_new();
    struct archive_entry *e;
    int rc = ORTKIT_OK;
    if (!a)
        return ortkit__error_nomem();
    if (archive_read_support_format_zip_seekable(a) != ARCHIVE_OK ||
        archive_read_open_filename(a, r->path, 1 << 16) != ARCHIVE_OK) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "wheel '%s': not a zip archive (%s)", r->file,
                               archive_error_string(a));
        goto cleanup;
    }
    for (;;) {
        int st = archive_read_next_header(a, &e);
        if (st == ARCHIVE_EOF)
            break;
        if (st != ARCHIVE_OK) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "wheel '%s': unreadable zip (%s)", r->file,
                                   archive_error_string(a));
            goto cleanup;
        }
        const char *name = archive_entry_pathname(e);
        mode_t type = archive_entry_filetype(e);
        if (!name || !name_ok(name)) {
            rc = fail(r, "a member's name is not a relative path inside the wheel: ",
                      name ? name : "(none)");
            goto cleanup;
        }
        size_t len = strlen(name);
        if (type == AE_IFDIR || (len && name[len - 1] == '/' && type == 0))
            continue;
        if (type != AE_IFREG || archive_entry_symlink(e) || archive_entry_hardlink(e)) {
            rc = ortkit__error_set(ORTKIT_E_FORMAT, "wheel '%s': '%s' is %s: a wheel holds "
                                   "regular files only", r->file, name,
                                   type == AE_IFLNK ? "a symbolic link" : archive_entry_hardlink(e) ? "a hard link" : "not a regular file");
            goto cleanup;
        }
        for (size_t i = 0; i < r->n; i++)
            if (!strcmp(r->m[i].name, name)) {
                rc = fail(r, "a member is there twice: ", name);
                goto cleanup;
            }
        if (r->n >= WHEEL_MAX_FILES) {
            rc = fail(r, "more than 100000 files", NULL);
            goto cleanup;
        }
        if ((rc = ortkit__array_reserve(&r->m, &r->cap, r->n + 1, sizeof *r->m, 256)))
            goto cleanup;
        memset(&r->m[r->n], 0, sizeof r->m[r->n]);
        if (!(r->m[r->n].name = strdup(name))) {
            rc = ortkit__error_nomem();
            goto cleanup;
        }
        r->n++;
        if ((rc = read_member(r, a, name, archive_entry_size_is_set(e) ? archive_entry_size(e) : -1)))
            goto cleanup;
    }
cleanup:
    archive_read_free(a);
    return rc;
}

/* RECORD: "path,sha256=...,size" for every file, ",," for itself. */
static int check_record(reader *r)
{
    char self[256];
    snprintf(self, sizeof self, "%s/RECORD", r->dist_info);
    if (!r->record)
        return fail(r, "no RECORD in ", r->dist_info);
    size_t lineno = 0;
    for (char *line = r->record, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "\r")] = '\0';
        if (!line[0])
            continue;
        char *c1 = strchr(line, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
        if (!c1 || !c2 || strchr(c2 + 1, ',') || strchr(line, '"'))
            return fail(r, "RECORD has a line that is not PATH,HASH,SIZE: ", line);
        *c1 = *c2 = '\0';
        member *mm = NULL;
        for (size_t i = 0; i < r->n && !mm; i++)
            if (!strcmp(r->m[i].name, line))
                mm = &r->m[i];
        if (!mm)
            return fail(r, "RECORD lists a file the wheel does not hold: ", line);
        if (mm->listed)
            return fail(r, "RECORD lists a file twice: ", line);
        mm->listed = 1;
        if (!strcmp(line, self)) {
            if (c1[1] || c2[1])
                return fail(r, "RECORD gives itself a hash", NULL);
            continue;
        }
        char size[32];
        snprintf(size, sizeof size, "%llu", (unsigned long long)mm->size);
        if (strcmp(c1 + 1, mm->hash) != 0)
            return fail(r, "its content is not what RECORD says (SHA-256): ", line);
        if (strcmp(c2 + 1, size) != 0)
            return fail(r, "its size is not what RECORD says: ", line);
    }
    for (size_t i = 0; i < r->n; i++)
        if (!r->m[i].listed)
            return fail(r, "RECORD does not list ", r->m[i].name);
    return ORTKIT_OK;
}

/* "Key: value" of an email-header file, the first of that key. */
static int header_value(char *out, size_t size, const char *text, const char *key)
{
    size_t k = strlen(key);
    for (const char *line = text; line && *line;) {
        if (!strncmp(line, key, k) && line[k] == ':') {
            const char *v = line + k + 1;
            while (*v == ' ')
                v++;
            size_t n = strcspn(v, "\r\n");
            if (n >= size)
                return -1;
            memcpy(out, v, n);
            out[n] = '\0';
            return 0;
        }
        if (*line == '\n' || (*line == '\r' && line[1] == '\n'))
            break; /* the body */
        line = strchr(line, '\n');
        line = line ? line + 1 : NULL;
    }
    return -1;
}

static int check_headers(reader *r)
{
    char v[256], want[256];
    if (!r->wheel || header_value(v, sizeof v, r->wheel, "Tag"))
        return fail(r, "no WHEEL file with a Tag in ", r->dist_info);
    snprintf(want, sizeof want, "%s-%s-%s", r->fn.python_tag, r->fn.abi_tag, r->fn.platform_tag);
    if (strcmp(v, want) != 0)
        return fail(r, "WHEEL's tag is not the file name's: ", v);
    if (header_value(v, sizeof v, r->wheel, "Wheel-Version") || strncmp(v, "1.", 2) != 0)
        return fail(r, "WHEEL's Wheel-Version is not 1.x", NULL);
    if (!r->metadata || header_value(v, sizeof v, r->metadata, "Name") || strcmp(v, WHEEL_PACKAGE))
        return fail(r, "METADATA does not name the package " WHEEL_PACKAGE, NULL);
    if (header_value(v, sizeof v, r->metadata, "Version") || strcmp(v, r->fn.version))
        return fail(r, "METADATA's version is not the file name's", NULL);
    return ORTKIT_OK;
}

/* declared >= measured, for a version ("" for none). */
static int covers(const char *declared, const char *measured)
{
    return !measured[0] || (declared && declared[0] && ortkit__version_compare(declared, measured) >= 0);
}

static int check_facts(reader *r, ortkit_wheel *w)
{
    if (!r->facts)
        return fail(r, "no " WHEEL_FACTS " in ", r->dist_info);
    cJSON *root = cJSON_ParseWithLength(r->facts, r->facts_size);
    ortkit__wheel_needs measured;
    memset(&measured, 0, sizeof measured);
    char *bundle_text = NULL, tag[64], why[512], python[16];
    int rc = ORTKIT_OK;
    const cJSON *wh = cJSON_GetObjectItemCaseSensitive(root, "wheel"),
                *needs = cJSON_GetObjectItemCaseSensitive(root, "needs"),
                *bundle = cJSON_GetObjectItemCaseSensitive(root, "bundle"),
                *schema = cJSON_GetObjectItemCaseSensitive(root, "schema");
    if (!cJSON_IsObject(root) || !cJSON_IsNumber(schema) || schema->valueint != WHEEL_FACTS_SCHEMA ||
        !cJSON_IsObject(wh) || !cJSON_IsObject(needs) || !cJSON_IsObject(bundle)) {
        rc = fail(r, WHEEL_FACTS " is not ortkit's (schema 1: wheel, needs, bundle)", NULL);
        goto cleanup;
    }
    const char *variant = ortkit__json_str(wh, "variant"), *ort = ortkit__json_str(wh, "onnxruntime"),
               *py = ortkit__json_str(wh, "python"), *from = ortkit__json_str(wh, "platform_tag_from");
    const char *g = ortkit__json_str(needs, "glibc"), *gx = ortkit__json_str(needs, "glibcxx"), *ca = ortkit__json_str(needs, "cxxabi");
    if (!variant || !ort || !py) {
        rc = fail(r, WHEEL_FACTS " lacks the variant, ONNX Runtime's version or the Python", NULL);
        goto cleanup;
    }
    int major = 0, minor = 0;
    if ((rc = ortkit__wheel_python_tag(tag, sizeof tag, py, &major, &minor)))
        goto cleanup;
    if (strcmp(tag, r->fn.python_tag) || strcmp(tag, r->fn.abi_tag)) {
        rc = fail(r, WHEEL_FACTS "'s Python is not the file name's: ", py);
        goto cleanup;
    }
    snprintf(python, sizeof python, "%d.%d", major, minor);
    /* What the ELF files need, read from them now. */
    ortkit_arch arch = ortkit_arch_here();
    const cJSON *req = cJSON_GetObjectItemCaseSensitive(bundle, "requires");
    const char *arch_name = ortkit__json_str(req, "arch");
    arch = arch_name && !strcmp(arch_name, "aarch64") ? ORTKIT_ARCH_AARCH64
           : arch_name && !strcmp(arch_name, "x86_64") ? ORTKIT_ARCH_X86_64
                                                         : ORTKIT_ARCH_UNKNOWN;
    for (size_t i = 0; i < r->elf_paths.n; i++)
        if ((rc = ortkit__wheel_needs_add(&measured, r->elf_paths.v[i], r->elf_names.v[i], arch)))
            goto cleanup;
    if (!covers(g, measured.glibc) || !covers(gx, measured.glibcxx) || !covers(ca, measured.cxxabi)) {
        char what[200];
        snprintf(what, sizeof what, "GLIBC_%s, GLIBCXX_%s, CXXABI_%s are needed; it says %s, %s, %s",
                 measured.glibc, measured.glibcxx, measured.cxxabi, g ? g : "none", gx ? gx : "none",
                 ca ? ca : "none");
        rc = fail(r, WHEEL_FACTS " understates what its libraries need: ", what);
        goto cleanup;
    }
    const cJSON *es = cJSON_GetObjectItemCaseSensitive(needs, "exec_stack");
    if (measured.exec_stack && !cJSON_IsTrue(es)) {
        rc = fail(r, WHEEL_FACTS " hides that a library asks for an executable stack", NULL);
        goto cleanup;
    }
    if ((rc = ortkit_wheel_platform_tag(tag, sizeof tag, arch, g, gx, ca, why, sizeof why)))
        goto cleanup;
    if (strcmp(tag, r->fn.platform_tag) != 0) {
        char what[200];
        snprintf(what, sizeof what, "'%s', but its needs earn '%s'", r->fn.platform_tag, tag);
        rc = fail(r, "its platform tag is ", what);
        goto cleanup;
    }
    /* The facts selection reads must say the same needs. */
    const cJSON *bn = cJSON_GetObjectItemCaseSensitive(bundle, "needs");
    const char *bg = ortkit__json_str(bn, "glibc"), *bgx = ortkit__json_str(bn, "glibcxx"), *bca = ortkit__json_str(bn, "cxxabi");
    if (!bn || !covers(bg, g ? g : "") || !covers(bgx, gx ? gx : "") || !covers(bca, ca ? ca : "") ||
        (measured.exec_stack && !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(bn, "exec_stack")))) {
        rc = fail(r, WHEEL_FACTS "'s bundle facts understate the wheel's needs", NULL);
        goto cleanup;
    }
    if (!(bundle_text = cJSON_PrintUnformatted(bundle))) {
        rc = ortkit__error_nomem();
        goto cleanup;
    }
    if ((rc = ortkit_bundle_parse(&w->bundle, bundle_text, strlen(bundle_text)))) {
        rc = ortkit__error_set(ORTKIT_E_FORMAT, "wheel '%s': " WHEEL_FACTS "'s bundle facts: %s",
                               r->file, ortkit_error_last());
        goto cleanup;
    }
    const ortkit_manifest *m = ortkit_bundle_manifest(w->bundle);
    char label[64], version[128];
    if (strcmp(m->variant, variant) || strcmp(m->ort_version, ort) ||
        ortkit_wheel_local_label(label, sizeof label, variant) ||
        (size_t)snprintf(version, sizeof version, "%s+%s", ort, label) >= sizeof version ||
        strcmp(version, r->fn.version)) {
        rc = fail(r, "its version, variant and ONNX Runtime do not agree: ", r->fn.version);
        goto cleanup;
    }
    ortkit__strv *s = &w->strings;
    if ((rc = ortkit__strv_push(s, python)) || (rc = ortkit__strv_push(s, variant)) ||
        (rc = ortkit__strv_push(s, ort)) || (rc = ortkit__strv_push(s, measured.glibc)) ||
        (rc = ortkit__strv_push(s, measured.glibcxx)) || (rc = ortkit__strv_push(s, measured.cxxabi)) ||
        (rc = ortkit__strv_push(s, from ? from : why)))
        goto cleanup;
    size_t k = s->n - 7;
    w->info.python = s->v[k];
    w->info.variant = s->v[k + 1];
    w->info.ort_version = s->v[k + 2];
    w->info.needs_glibc = s->v[k + 3];
    w->info.needs_glibcxx = s->v[k + 4];
    w->info.needs_cxxabi = s->v[k + 5];
    w->info.tag_from = s->v[k + 6];
    w->info.bundle = w->bundle;
cleanup:
    cJSON_Delete(root);
    free(bundle_text);
    ortkit__wheel_needs_free(&measured);
    return rc;
}

static void reader_free(reader *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->m[i].name);
    free(r->m);
    free(r->record);
    free(r->wheel);
    free(r->metadata);
    free(r->facts);
    if (r->elf_dir[0])
        ortkit__rmtree(r->elf_dir);
    ortkit__strv_free(&r->elf_paths);
    ortkit__strv_free(&r->elf_names);
}

int ortkit__wheel_open_as(ortkit_wheel **out, const char *path, const char *file)
{
    *out = NULL;
    reader r;
    memset(&r, 0, sizeof r);
    r.path = path;
    r.file = file;
    ortkit_wheel *w = calloc(1, sizeof *w);
    if (!w)
        return ortkit__error_nomem();
    int rc = ortkit__file_check(path, "wheel", NULL);
    if (rc || (rc = ortkit__wheel_name_parse(&r.fn, file)))
        goto cleanup;
    if (strcmp(r.fn.dist, WHEEL_PACKAGE) != 0) {
        rc = fail(&r, "not a wheel of the package " WHEEL_PACKAGE, NULL);
        goto cleanup;
    }
    snprintf(r.dist_info, sizeof r.dist_info, WHEEL_PACKAGE "-%s.dist-info", r.fn.version);
    const char *tmpdir = ortkit__env_nonempty("TMPDIR");
    if ((rc = ortkit__pathf(r.elf_dir, sizeof r.elf_dir, "%s/ortkit-wheel.XXXXXX",
                            tmpdir ? tmpdir : "/tmp")))
        goto cleanup;
    if (!mkdtemp(r.elf_dir)) {
        r.elf_dir[0] = '\0';
        rc = ortkit__error_set(ORTKIT_E_IO, "cannot make a private directory to read the "
                               "wheel's libraries in (TMPDIR)");
        goto cleanup;
    }
    if ((rc = read_zip(&r)) || (rc = check_record(&r)) || (rc = check_headers(&r)) ||
        (rc = check_facts(&r, w)))
        goto cleanup;
    ortkit__strv *s = &w->strings;
    size_t k = s->n;
    if ((rc = ortkit__strv_push(s, path)) || (rc = ortkit__strv_push(s, file)) ||
        (rc = ortkit__strv_push(s, r.fn.version)) || (rc = ortkit__strv_push(s, r.fn.python_tag)) ||
        (rc = ortkit__strv_push(s, r.fn.abi_tag)) || (rc = ortkit__strv_push(s, r.fn.platform_tag)))
        goto cleanup;
    w->info.path = s->v[k];
    w->info.file = s->v[k + 1];
    w->info.name = WHEEL_PACKAGE;
    w->info.version = s->v[k + 2];
    w->info.python_tag = s->v[k + 3];
    w->info.abi_tag = s->v[k + 4];
    w->info.platform_tag = s->v[k + 5];
    w->info.file_count = r.n;
    w->info.unpacked_size = r.total;
    w->facts = r.facts;
    r.facts = NULL;
    w->info.facts_json = w->facts;
cleanup:
    reader_free(&r);
    if (rc)
        ortkit_wheel_free(w);
    else
        *out = w;
    return rc;
}

int ortkit_wheel_open(ortkit_wheel **out, const char *path)
{
    if (!out || !path)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "ortkit_wheel_open: NULL argument");
    return ortkit__wheel_open_as(out, path, ortkit__path_last(path));
}

const ortkit_wheel_info *ortkit_wheel_info_get(const ortkit_wheel *wheel)
{
    return wheel ? &wheel->info : NULL;
}

void ortkit_wheel_free(ortkit_wheel *wheel)
{
    if (!wheel)
        return;
    ortkit_bundle_free(wheel->bundle);
    ortkit__strv_free(&wheel->strings);
    free(wheel->facts);
    free(wheel);
}
