/*
 * repo_releases.c - Microsoft's ONNX Runtime release tarballs on GitHub
 * (`ortkit bundle fetch VERSION --from github`): their file names, and the
 * SHA-256 ortkit carries for those whose digest it could source.
 *
 * A row is taken only where a public file states that digest for exactly
 * that file name and version; each says what kind of file stated it.  A release that is not here
 * is refused unless the user passes its SHA-256 (--sha256).  Sizes are given
 * where a source states them (0: not known; the hash decides).
 */
#include "repo.h"

#include <stdio.h>
#include <string.h>

static const ortkit__release table[] = {
    /* A Go package's pinned runtime manifest (URL, SHA256, Size). */
    {"1.19.2", "x64", "cpu", "onnxruntime-linux-x64-1.19.2.tgz", 6083273,
     "eb00c64e0041f719913c4080e0fed7d9963dc3aa9b54664df6036d8308dbcd33"},
    /* A Dockerfile's ONNXRUNTIME_URL/ONNXRUNTIME_SHA256 build arguments. */
    {"1.20.1", "x64", "cpu", "onnxruntime-linux-x64-1.20.1.tgz", 0,
     "67db4dc1561f1e3fd42e619575c82c601ef89849afc7ea85a003abbac1a1a105"},
    /* Two inference write-ups' tables of pinned artifacts ("Official
     * onnxruntime-linux-x64-1.22.0.tgz"). */
    {"1.22.0", "x64", "cpu", "onnxruntime-linux-x64-1.22.0.tgz", 0,
     "8344d55f93d5bc5021ce342db50f62079daf39aaafb5d311a451846228be49b3"},
    /* CMake file(DOWNLOAD ... EXPECTED_HASH SHA256=) in four build scripts. */
    {"1.23.2", "x64", "cpu", "onnxruntime-linux-x64-1.23.2.tgz", 0,
     "1fa4dcaef22f6f7d5cd81b28c2800414350c10116f5fdd46a2160082551c5f9b"},
    /* CMake file(DOWNLOAD ... EXPECTED_HASH) of the CUDA/TensorRT build. */
    {"1.23.2", "x64", "cuda12", "onnxruntime-linux-x64-gpu-1.23.2.tgz", 0,
     "2083e361072a79ce16a90dcd5f5cb3ab92574a82a3ce0ac01e5cfa3158176f53"},
    /* A script that repackages the official tarballs as a Debian package. */
    {"1.24.4", "x64", "cpu", "onnxruntime-linux-x64-1.24.4.tgz", 0,
     "3a211fbea252c1e66290658f1b735b772056149f28321e71c308942cdb54b747"},
    {"1.24.4", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.24.4.tgz", 0,
     "866109a9248d057671a039b9d725be4bd86888e3754140e6701ec621be9d4d7e"},
    /* A Dockerfile's ONNXRUNTIME_SHA256 argument, checked with sha256sum -c. */
    {"1.25.0", "x64", "cpu", "onnxruntime-linux-x64-1.25.0.tgz", 0,
     "e0a8998e70416801f9a634a8ea1d369a255ff109741469f9d99cf369a46a1492"},
    /* An installer's onnxruntime_sha256() per archive name. */
    {"1.25.1", "x64", "cpu", "onnxruntime-linux-x64-1.25.1.tgz", 0,
     "eb566a49cfc49ef0642f809b69340b5bb656c7c4905ba873526d226f2c005816"},
    {"1.25.1", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.25.1.tgz", 0,
     "daa71b56b00c4ab34798a3d96ca41a32ece4d3e302dc2386d3cca83fd4491214"},
    /* Three model-fetch scripts' pinned ORT_SHA / ONNXRUNTIME_SHA256. */
    {"1.26.0", "x64", "cpu", "onnxruntime-linux-x64-1.26.0.tgz", 0,
     "1254da24fb389cf39dc0ff3451ab48301740ffbfcbaf646849df92f80ee92c57"},
    {"1.26.0", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.26.0.tgz", 0,
     "34ff1c2d0f12e2cf3d33a0c5f82e39792e1d581fbd6968fd7c30d173654be01a"},
    /* A Rust asset table (archive_size, archive_sha256), a Dart checksum
     * map and two more download tables agree. */
    {"1.27.0", "x64", "cpu", "onnxruntime-linux-x64-1.27.0.tgz", 8831605,
     "547e40a48f1fe73e3f812d7c88a948612c23f896b91e4e2ee1e232d7b468246f"},
    /* The Dart checksum map (kOnnxOrtChecksums). */
    {"1.27.0", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.27.0.tgz", 0,
     "3e4d83ac06924a32a07b6d7f91ce6f852876153fc0bbdf931bf517a140bfbe48"},
    /* A setup script's expected_sha() ("GitHub release asset digests for
     * v1.28.0, api.github.com digest field"); x64 also in a CMake note. */
    {"1.28.0", "x64", "cpu", "onnxruntime-linux-x64-1.28.0.tgz", 0,
     "a3e1b79d7bb1bf09696ce675f49e4064e6c81f6202b8225624fff0e93f8d6407"},
    {"1.28.0", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.28.0.tgz", 0,
     "e15ff8b5d85afe6c144d97c6fd432254bf76a219daaf17658087d6ecb3e8f0bb"},
    /* A build script's artefacts list (name|sha256|url|lib dir). */
    {"1.28.0", "x64", "cuda12", "onnxruntime-linux-x64-gpu_cuda12-1.28.0.tgz", 0,
     "ea6bd2b65d7dfabbeb92c4af5dd8f12e5aed8601e544ad378d2f872275438b1a"},
    /* The same list, a Rust artefact table (bytes: 240_874_643) and two
     * notes that verified it. */
    {"1.28.0", "x64", "cuda13", "onnxruntime-linux-x64-gpu_cuda13-1.28.0.tgz", 240874643,
     "84d28f27589090b280d4312743efd3d450cd4ac7d1e1d75e7d9076d9637bf9de"},
    /* A model-fetch script's pinned_ort_sha256(), a Go digest map and a
     * build script's ONNXRUNTIME_SHA256S ("from GitHub release assets"). */
    {"1.29.0", "x64", "cpu", "onnxruntime-linux-x64-1.29.0.tgz", 0,
     "c3fddc4f139a045b0c4902c57410f0694f1c2fdf9b6939fbe38b1aeae7cd14ba"},
    {"1.29.0", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.29.0.tgz", 0,
     "e1799098ebc054b370f6176a450f158720f297818c613e5dc99b92e2ec82346f"},
    {"1.29.0", "x64", "cuda12", "onnxruntime-linux-x64-gpu_cuda12-1.29.0.tgz", 0,
     "4ca594a0da83927befbd73fe020d7f569be151d70bb4fe9741ad405f4882e2ad"},
    /* An install guide's sha256sum -c line and a bootstrap script's
     * onnxruntime_known_sha256() ("from the GitHub release API"). */
    {"1.29.0", "x64", "cuda13", "onnxruntime-linux-x64-gpu_cuda13-1.29.0.tgz", 0,
     "844c64acfc43ab9423215c26493055ea229268e28283146cc644ecef0bdae048"},
    /* A Go package's pinnedSHA256 ("the SHA-256 GitHub publishes"), a Rust
     * runtime package table (size 11_306_877), a pinned-downloads list and
     * a shell setup script agree. */
    {"1.30.0", "x64", "cpu", "onnxruntime-linux-x64-1.30.0.tgz", 11306877,
     "a5ed5a3cac51fbb2e90da632ae43d19212faaa20e76484e62bcb7c23ddb3b3fd"},
    /* The same Go map, pinned-downloads list and setup script; a Rust table
     * gives bytes: 10_269_495. */
    {"1.30.0", "aarch64", "cpu", "onnxruntime-linux-aarch64-1.30.0.tgz", 10269495,
     "e16a27a8ed330bbc698df7330b0cf56e722f354e3bcc92118682c74ef3c3e3da"},
    /* The Go pinnedSHA256 map. */
    {"1.30.0", "x64", "cuda12", "onnxruntime-linux-x64-gpu_cuda12-1.30.0.tgz", 0,
     "f9886932ee7bb0b4d3fcab736a392d4ff5efaa0672b47f19f0cec03437cf64f1"},
    /* The Go map and an install guide's sha256sum -c line. */
    {"1.30.0", "x64", "cuda13", "onnxruntime-linux-x64-gpu_cuda13-1.30.0.tgz", 0,
     "382d79133112388cf94ce5855789b7c9bef12bef76a08b6b277e5a317213adcd"},
};

#define TABLE_SIZE (sizeof table / sizeof table[0])

size_t ortkit__release_count(void) { return TABLE_SIZE; }

const ortkit__release *ortkit__release_at(size_t i) { return i < TABLE_SIZE ? &table[i] : NULL; }

const ortkit__release *ortkit__release_find(const char *version, const char *arch,
                                            const char *flavour)
{
    for (size_t i = 0; i < TABLE_SIZE; i++)
        if (!strcmp(table[i].version, version) && !strcmp(table[i].arch, arch) &&
            !strcmp(table[i].flavour, flavour))
            return &table[i];
    return NULL;
}

/* The GPU tarballs were "-gpu-" (CUDA 12) up to 1.26; from 1.27 one per
 * CUDA major, "-gpu_cuda12-" and "-gpu_cuda13-". */
int ortkit__release_file(char *out, size_t size, const char *version, const char *arch,
                         const char *flavour)
{
    const char *kind = "";
    if (!strcmp(flavour, "cuda12"))
        kind = ortkit__version_compare(version, "1.27") < 0 ? "-gpu" : "-gpu_cuda12";
    else if (!strcmp(flavour, "cuda13"))
        kind = "-gpu_cuda13";
    else if (strcmp(flavour, "cpu"))
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "'%s' is not a release flavour (cpu, "
                                 "cuda12, cuda13)", flavour);
    int n = snprintf(out, size, "onnxruntime-linux-%s%s-%s.tgz", arch, kind, version);
    if (n < 0 || (size_t)n >= size)
        return ortkit__error_set(ORTKIT_E_INVALID_ARG, "the release name of '%s' is too long",
                                 version);
    return ORTKIT_OK;
}
