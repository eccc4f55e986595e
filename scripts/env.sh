# Source this file (`. scripts/env.sh`) to put Node 24 first on PATH for this shell: npm and npx then run on it.
_zx_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
"$_zx_root/scripts/node24" -e '' >/dev/null
if [ -x "$_zx_root/.node/bin/node" ]; then export PATH="$_zx_root/.node/bin:$PATH"; fi
export PATH="$_zx_root/node_modules/.bin:$PATH"
unset _zx_root
