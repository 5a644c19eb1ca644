# repo_lib.sh - what the repository tests (repo*.t) share: a bundle, a key
# pair, a published repository, and Debian's nginx serving it over TLS on a
# free loopback port, with its own prefix, configuration and test CA here.
# Sourced by the .t files after run_cli_test.sh's helpers.

# The rollback state and the user's bundle directory stay in the scratch dir.
export XDG_STATE_HOME="$PWD/state" XDG_DATA_HOME="$PWD/data" XDG_CACHE_HOME="$PWD/cache"

# make_repo: bundles/ort-1.17.3-cpu, ortkit.key/.pub, and repo/ publishing it.
make_repo() {
    "$ORTKIT" bundle import "$RT_OLD" --into bundles >/dev/null
    "$ORTKIT" bundle keygen >/dev/null
    "$ORTKIT" bundle publish bundles/ort-1.17.3-cpu --repo repo --key ortkit.key >/dev/null 2>&1
}

NGINX=$(command -v nginx || echo /usr/sbin/nginx)
have_nginx() { [ -x "$NGINX" ] && command -v openssl >/dev/null 2>&1; }

# A CA and a certificate for 127.0.0.1 signed by it (tls/).
make_tls() {
    mkdir -p tls
    openssl req -x509 -newkey rsa:2048 -nodes -keyout tls/ca.key -out tls/ca.pem -days 2 \
        -subj "/CN=ortkit test CA" 2>/dev/null
    openssl req -newkey rsa:2048 -nodes -keyout tls/server.key -out tls/server.csr \
        -subj "/CN=127.0.0.1" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' >tls/ext
    openssl x509 -req -in tls/server.csr -CA tls/ca.pem -CAkey tls/ca.key -CAcreateserial \
        -out tls/server.pem -days 2 -extfile tls/ext 2>/dev/null
}

# start_nginx ROOT [RATE]: serve ROOT over https (RATE: limit_rate, e.g. 1m);
# sets PORT and URL, the server's pid in nginx/pid.
start_nginx() {
    [ -f tls/ca.pem ] || make_tls
    PORT=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p nginx/logs nginx/tmp
    cat >nginx/nginx.conf <<CONF
daemon off;
master_process off;
worker_processes 1;
error_log $PWD/nginx/logs/error.log;
pid $PWD/nginx/nginx.pid;
events { worker_connections 64; }
http {
    access_log $PWD/nginx/logs/access.log;
    client_body_temp_path $PWD/nginx/tmp;
    proxy_temp_path $PWD/nginx/tmp;
    fastcgi_temp_path $PWD/nginx/tmp;
    uwsgi_temp_path $PWD/nginx/tmp;
    scgi_temp_path $PWD/nginx/tmp;
    server {
        listen 127.0.0.1:$PORT ssl;
        ssl_certificate $PWD/tls/server.pem;
        ssl_certificate_key $PWD/tls/server.key;
        root $1;
        ${2:+limit_rate $2;}
    }
}
CONF
    "$NGINX" -p "$PWD/nginx" -c "$PWD/nginx/nginx.conf" -e "$PWD/nginx/logs/error.log" &
    echo $! >nginx/pid
    URL="https://127.0.0.1:$PORT"
    tries=0
    until curl -sf --cacert tls/ca.pem -o /dev/null "$URL/${NGINX_PROBE:-index.json}"; do
        tries=$((tries + 1))
        if [ $tries -gt 100 ]; then
            echo "FAIL: nginx did not start" >&2
            cat nginx/logs/error.log >&2
            exit 1
        fi
        sleep 0.1
    done
}

stop_nginx() {
    if [ -f nginx/pid ]; then
        kill -9 "$(cat nginx/pid)" 2>/dev/null || true
        wait "$(cat nginx/pid)" 2>/dev/null || true
        rm -f nginx/pid
    fi
}
