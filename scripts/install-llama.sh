#!/usr/bin/env bash
# Install llama-cpp-python into a virtual environment, built so that it runs on any x86-64 CPU with AVX2.
#
# Why explicit flags and not llama.cpp's native build: a native build compiles the kernels of the CPU it is
# built on (AVX-512, AMX, ...); on another CPU, or a VM that advertises AMX without letting a guest use it,
# the first matrix multiply dies with SIGSEGV/SIGILL. Why not llama.cpp's runtime CPU-variant dispatch
# (GGML_BACKEND_DL + GGML_CPU_ALL_VARIANTS): it compiles the CPU backend about ten times over (too slow on
# a 2-core machine) and picks kernels per machine, so the same model gives different greedy answers on
# different CPUs. One AVX2/FMA/F16C build is portable and gives every machine the same kernels.
#
# Why a wheel directory of our own: pip's wheel cache ignores CMAKE_ARGS, so a wheel built with other
# flags (on another CPU) would be silently reused. Here the wheel is built with pip's cache off and kept in
# a directory whose name holds the version and a hash of the flags; only a wheel built with exactly these
# flags is ever installed.
#
# Usage: scripts/install-llama.sh VENV_PYTHON
# Environment: LLAMA_CPP_VERSION, LLAMA_CMAKE_ARGS (override the flags), LADDERBENCH_WHEEL_DIR.
set -euo pipefail

python=${1:?usage: install-llama.sh VENV_PYTHON}
version=${LLAMA_CPP_VERSION:-0.3.36}
portable="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
portable+=" -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
flags=${LLAMA_CMAKE_ARGS:-$portable}

if [[ -z ${LLAMA_CMAKE_ARGS:-} && $(uname -m) == x86_64 ]] && ! grep -qw avx2 /proc/cpuinfo; then
	echo "error: this CPU has no AVX2, which the portable llama.cpp build needs;" \
		"rerun with LLAMA_CMAKE_ARGS=\"-DGGML_NATIVE=ON\" make setup (a build for this CPU only)" >&2
	exit 1
fi

# The wheel loads llama.cpp through ctypes (tagged py3-none-linux_ARCH): the key is the flags, the
# version and the machine's architecture.
key=$(printf '%s\n%s\n%s\n' "$version" "$flags" "$(uname -m)" | sha256sum | cut -c1-16)
dir=${LADDERBENCH_WHEEL_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ladderbench/wheels}/llama-cpp-python-$version-$key

wheel() { ls "$dir"/llama_cpp_python-"$version"-*.whl 2>/dev/null | head -n 1; }
if [[ -z $(wheel) ]]; then
	echo "building llama-cpp-python $version for any AVX2 CPU (5-10 minutes, once per machine)..."
	mkdir -p "$dir"
	printf '%s\n' "$flags" >"$dir/CMAKE_ARGS"
	CMAKE_ARGS="$flags" "$python" -m pip wheel --quiet --no-cache-dir --no-deps \
		--wheel-dir "$dir" "llama-cpp-python==$version"
fi
"$python" -m pip install --quiet --no-index --no-deps --force-reinstall "$(wheel)"
