# npm_lib.sh - a fixture npm registry for `ortkit bundle fetch`, made like
# npm's: onnxruntime-node's tarball (package/bin/napi-v<N>/linux/{x64,arm64}/)
# holding a real runtime (set-up's), and its version's metadata JSON
# (dist.tarball, dist.integrity: SHA-512, base64).  Served by repo_lib.sh's
# nginx on loopback.  Sourced after run_cli_test.sh's helpers and repo_lib.sh.

case $(uname -m) in
x86_64) npm_arch=x64 npm_other=arm64 ;;
aarch64) npm_arch=arm64 npm_other=x64 ;;
*) npm_arch="" ;;
esac

# npm_integrity FILE: npm's "sha512-BASE64" of FILE.
npm_integrity() { printf 'sha512-%s' "$(openssl dgst -sha512 -binary "$1" | base64 -w0)"; }

# npm_metadata VERSION TARBALL_URL INTEGRITY: a version's metadata on stdout.
npm_metadata() {
    printf '{"name": "onnxruntime-node", "version": "%s", "dist": {"tarball": "%s", "integrity": "%s", "shasum": "0"}}\n' "$@"
}

# npm_package VERSION RUNTIME_DIR: reg/onnxruntime-node/-/onnxruntime-node-VERSION.tgz
# with RUNTIME_DIR's libraries under the newest N-API (napi-v3) for this
# architecture, and decoys where ortkit must not look (napi-v2, the other
# architecture, the Node binding).
npm_package() {
    rm -rf pkg && mkdir -p "pkg/package/bin/napi-v3/linux/$npm_arch" \
        "pkg/package/bin/napi-v3/linux/$npm_other" "pkg/package/bin/napi-v2/linux/$npm_arch" \
        reg/onnxruntime-node/-
    for f in "$2"/libonnxruntime*.so*; do
        [ -L "$f" ] || cp "$f" "pkg/package/bin/napi-v3/linux/$npm_arch/"
    done
    printf 'not a library\n' >"pkg/package/bin/napi-v3/linux/$npm_arch/onnxruntime_binding.node"
    printf 'decoy\n' >"pkg/package/bin/napi-v3/linux/$npm_other/libonnxruntime.so.1"
    printf 'decoy\n' >"pkg/package/bin/napi-v2/linux/$npm_arch/libonnxruntime.so.1"
    printf '{"name": "onnxruntime-node", "version": "%s"}\n' "$1" >pkg/package/package.json
    tar -czf "reg/onnxruntime-node/-/onnxruntime-node-$1.tgz" -C pkg package
}

# npm_publish VERSION: its metadata, pointing at the tarball on $URL.
npm_publish() {
    npm_metadata "$1" "$URL/onnxruntime-node/-/onnxruntime-node-$1.tgz" \
        "$(npm_integrity "reg/onnxruntime-node/-/onnxruntime-node-$1.tgz")" >"reg/onnxruntime-node/$1"
}
