#!/usr/bin/env bash
# Set up a fresh machine for Blacksalt and run it.
#
#   bash packaging/dev.sh play [ARGS...]   set up, then run the game (`blacksalt ARGS...`)
#   bash packaging/dev.sh test [ARGS...]   set up, then run the whole test suite (pytest ARGS...)
#   bash packaging/dev.sh setup            only set up
#
# Setting up is idempotent and quick when already done: the apt libraries Qt
# needs (Debian/Ubuntu, as root or with sudo), a virtualenv in .venv, and the
# project with its test and dev extras installed in it.
set -euo pipefail
cd "$(dirname "$0")/.."

want_apt=(libglib2.0-0 libegl1 libgl1 libxkbcommon0 libfontconfig1 libdbus-1-3
          libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0
          libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0 fonts-dejavu-core)

apt_setup() {
    command -v dpkg-query >/dev/null 2>&1 || return 0
    local missing=()
    for p in "${want_apt[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "setup: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq >/dev/null
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

venv_setup() {
    local py="${PYTHON:-python3}"
    if [ ! -x .venv/bin/python ]; then
        if ! "$py" -m venv .venv 2>/dev/null; then
            rm -rf .venv
            echo "setup: python3 -m venv failed; installing python3-venv" >&2
            apt-get update -qq >/dev/null && apt-get install -y -qq python3-venv >/dev/null
            "$py" -m venv .venv
        fi
    fi
    local stamp=.venv/.blacksalt-installed
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        .venv/bin/python -m pip install -q --disable-pip-version-check -U pip >/dev/null
        .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
        touch "$stamp"
    fi
}

cmd="${1:-play}"
shift || true
apt_setup
venv_setup
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-$( [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && echo "" || echo offscreen )}"
[ -z "$QT_QPA_PLATFORM" ] && unset QT_QPA_PLATFORM
case "$cmd" in
    play) exec .venv/bin/blacksalt "$@" ;;
    test) exec .venv/bin/python -m pytest "$@" ;;
    setup) echo "set up: .venv ready" ;;
    *) echo "usage: bash packaging/dev.sh play|test|setup [ARGS...]" >&2; exit 2 ;;
esac
