# validate --cache changes nothing: the whole default suite, filling the
# session cache and then loading every session from it, gives the verdicts,
# largest differences and messages of a run without the cache.  The tests of
# random operators (Bernoulli) differ from run to run with or without it:
# only their verdict is compared.
[ -d /usr/share/libonnx-testdata/data/node ] || { echo "skip: no libonnx-testdata"; exit 0; }

for pass in plain fill hit; do
    cache=""
    [ $pass = plain ] || cache="--cache=sessions"
    expect_exit 0 "$ORTKIT" validate --no-progress -j2 --exclude '*strnorm*' --runtime "$RT_NEW" --json $cache
    mv out $pass.json
done
ls sessions/*.ortkit-session >/dev/null
/usr/bin/python3 - <<'EOF'
import json
def verdicts(p):
    out = {}
    for t in json.load(open(p))["tests"]:
        key = t["suite"] + "/" + t["name"]
        random = "bernoulli" in t["name"]
        out[key] = (t["status"],) if random else (t["status"], t.get("max_diff"), t.get("max_diff_at"), t.get("message"))
    return out
plain = verdicts("plain.json")
assert len(plain) > 1000, len(plain)
for p in ("fill.json", "hit.json"):
    other = verdicts(p)
    diff = [k for k in plain if plain[k] != other.get(k)]
    assert not diff and len(other) == len(plain), (p, diff[:5])
EOF
