# shellcheck shell=bash
# Shared setup for scripts/serve, scripts/test and ./modelscores (sourced, not run).
# One line per step; a step that has nothing to do costs milliseconds.
#   setup_python      the interpreter (python3 on PATH, or $PYTHON): version checked up front
#   setup_uv          uv, pinned, from PyPI into .tools/uv
#   setup_packages    .venv exactly as uv.lock says (recreated if made by another interpreter),
#                     compiled to bytecode when something is installed (unless the
#                     caller sets UV_COMPILE_BYTECODE: uv follows it)
# SETUP_QUIET=1: say nothing when nothing changed (./modelscores).
# Adding a Python dependency: see README.md, "Development".

UV_VERSION=0.13.8
SETUP_NAME=${SETUP_NAME:-$(basename "$0")}
UV="$PWD/.tools/uv/bin/uv"
export UV_PYTHON_DOWNLOADS=never  # use the interpreter checked here, never a downloaded one
export UV_NO_PROGRESS=1

say() { printf '%s: %s\n' "$SETUP_NAME" "$*" >&2; }
fail() { say "$*"; exit 1; }

# The minimum version, read from pyproject.toml's requires-python (">=3.11").
required_python() {
  sed -n 's/^requires-python *= *">=\([0-9.]*\)".*/\1/p' pyproject.toml
}

setup_python() {
  local want py info
  want=$(required_python)
  py=${PYTHON:-python3}
  command -v "$py" >/dev/null 2>&1 || fail "needs Python >= $want, but '$py' is not on PATH"
  # One start of the interpreter (pyenv shims are slow); this code runs on any Python 3.
  info=$("$py" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3], getattr(sys, "_base_executable", sys.executable))' 2>/dev/null) ||
    fail "needs Python >= $want, but '$py' does not run"
  PYTHON_VERSION=${info%% *}
  PYTHON_EXE=${info#* }
  if ! printf '%s\n%s\n' "$want" "$PYTHON_VERSION" | sort -C -V; then
    fail "needs Python >= $want, but $py is $PYTHON_VERSION; put Python $want+ first on PATH (or set PYTHON=/path/to/python$want)"
  fi
}

# uv is a single static binary from its PyPI wheel; reinstalled only if missing or another version.
setup_uv() {
  if [ -x "$UV" ] && [[ "$("$UV" --version 2>/dev/null)" == "uv $UV_VERSION "* ]]; then
    return 0
  fi
  "$PYTHON_EXE" -m pip --version >/dev/null 2>&1 ||
    fail "needs pip for $PYTHON_EXE to install uv (Debian: apt-get install python3-pip)"
  say "installing uv $UV_VERSION from PyPI into .tools/uv"
  rm -rf .tools/uv .tools/uv.partial
  mkdir -p .tools
  # -qq: only errors (a machine's pip configuration may warn about its own index settings).
  # --target, not --prefix: Debian's python3 puts a --prefix install's scripts in PREFIX/local/bin.
  "$PYTHON_EXE" -m pip install -qq --disable-pip-version-check --no-warn-script-location \
    --root-user-action=ignore --target .tools/uv.partial "uv==$UV_VERSION" ||
    fail "could not install uv $UV_VERSION with pip"
  [ -x .tools/uv.partial/bin/uv ] || fail "pip installed uv $UV_VERSION without .tools/uv.partial/bin/uv"
  mv .tools/uv.partial .tools/uv
}

# setup_packages [uv sync options]: .venv made by $PYTHON_EXE with exactly the locked packages.
# setup_icu_build: what PyICU (the `refresh` extra) builds against, from Debian when missing:
# ICU's headers, pkg-config and a C++ compiler (uv builds it once and keeps the wheel).
setup_icu_build() {
  if pkg-config --exists icu-i18n 2>/dev/null && command -v c++ >/dev/null 2>&1; then
    return
  fi
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo -n)
  say "installing Debian packages libicu-dev pkg-config g++ (PyICU builds against them)"
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq >/dev/null || fail "apt-get update failed"
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends libicu-dev pkg-config g++ >/dev/null ||
    fail "could not install libicu-dev pkg-config g++"
}

setup_packages() {
  case " $* " in *" --extra refresh "*) setup_icu_build ;; esac
  # A half-made .venv (an interrupted first run) is rebuilt, not reused.
  if [ -e .venv ] && ! .venv/bin/python -c '' >/dev/null 2>&1; then
    say "removing a broken .venv"
    rm -rf .venv
  fi
  local out compile=()
  # Say so before a download starts, not only after it ends. What is installed is compiled
  # to bytecode then (as pip does), so no start of Python compiles a package's source again:
  # environments that set PYTHONDONTWRITEBYTECODE would otherwise compile it at every start.
  # UV_COMPILE_BYTECODE, when the caller sets it, decides instead (0: leave the source).
  if ! "$UV" sync --locked --check --python "$PYTHON_EXE" "$@" >/dev/null 2>&1; then
    say "installing Python packages from uv.lock into .venv"
    [ -n "${UV_COMPILE_BYTECODE+set}" ] || compile=(--compile-bytecode)
  fi
  if ! out=$("$UV" sync --locked --python "$PYTHON_EXE" "${compile[@]}" "$@" 2>&1); then
    printf '%s\n' "$out" >&2
    fail "could not install the Python packages of uv.lock"
  fi
  # uv names what it changed ("Installed 12 packages", "Uninstalled 1 package"); else up to date.
  local changed
  changed=$(printf '%s\n' "$out" | sed -n -E \
    -e 's/^Creating virtual environment.*/new .venv/p' \
    -e 's/^(Installed|Uninstalled) ([0-9]+ packages?).*/\L\1\E \2/p' | paste -sd ';' | sed 's/;/, /g')
  if [ -n "$changed" ] || [ -z "${SETUP_QUIET:-}" ]; then
    say "Python $PYTHON_VERSION, packages from uv.lock in .venv: ${changed:-up to date}"
  fi
}
