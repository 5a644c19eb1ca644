# scripts/ort/build.sh - sourced by scripts/build_ort.sh (after common.sh):
# step 4, the build (no option): `ortkit build` in the root, the bundle into
# its /bundles, the report into deps/build-ort-ROOT-VARIANT.json (ROOT:
# bullseye or trixie, so one root's build never overwrites the other's
# report of the same variant; bullseye-COMPILER with ORT_COMPILER), then what can be
# checked here: a bullseye build is checked where it was not built
# (--ship-check), a CUDA build as --cuda-check does, any other as --compare
# does after validating it (deps/validate-ort-VARIANT.json): compare.sh's
# and cuda_check.sh's functions, which build_ort.sh sources too.
# shellcheck shell=sh disable=SC2154 # the settings are common.sh's, which build_ort.sh sources first.

build() {
    say "ortkit build $variant (about 23 minutes on 2 cores)"
    report="$deps/build-ort-$build_tag-$variant.json"
    # shellcheck disable=SC2086 # ORTKIT_BUILD_FLAGS: options, split at blanks
    ortkit_build --bundle-into "$bundles" ${ORTKIT_BUILD_FLAGS:-} --json >"$report"
    say "report: $report"
    # The build just made, by name: selection would take the best fit in
    # /bundles, which need not be this variant.
    built="$bundles/ort-$ort_version-$variant"
    case $variant in
    cpu-armv*) ;; # another architecture: it cannot load here
    *) inside ortkit version --runtime "$built" || true ;;
    esac
    case $root_kind-$variant in
    bullseye-cpu-armv*)
        # Another architecture: checked here under emulation.
        say "next: VARIANT=$variant sh scripts/build_ort.sh --arm64-check (under qemu, on this host)"
        ;;
    bullseye-*)
        # A build that ships is checked where it did not build: on this host.
        say "next: sh scripts/build_ort.sh --ship-check (on this host, outside the root)"
        ;;
    *-cuda*)
        # Its core keeps only two models' operators: the conformance suite and
        # the CPU benchmark say nothing of it; what a machine without a GPU can
        # check is cuda_check's.
        cuda_check || say "the CUDA check did not complete"
        ;;
    *)
        inside ortkit validate --runtime "$built" --json >"$deps/validate-ort-$variant.json" ||
            say "validate reported failures ($deps/validate-ort-$variant.json)"
        compare || say "the comparison did not complete"
        ;;
    esac
    say "done: the bundle is in $root/bundles"
}
