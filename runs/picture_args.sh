# The arguments every docs-picture script of runs/ takes, read one way (sourced by
# docs_pictures.sh and duato_congestion.sh):
#   picture_args NAME DEFAULT_OUT "$@"
# with the script's arguments `path/to/wormnet [out-dir] [--update-docs] [--quick]`. Sets
# wormnet, out (DEFAULT_OUT when not given), update and quick (0 or 1); a bad argument is one
# line naming it, and exit 2. --quick pictures never go to docs/img.
picture_args() {
  local name=$1 default_out=$2
  shift 2
  local usage="usage: $0 path/to/wormnet [out-dir] [--update-docs] [--quick]"
  local positional=() arg
  update=0 quick=0
  for arg in "$@"; do
    case $arg in
      --update-docs) update=1 ;;
      --quick) quick=1 ;;
      -*) echo "$name: unknown option '$arg'; $usage" >&2; exit 2 ;;
      *) positional+=("$arg") ;;
    esac
  done
  ((${#positional[@]} >= 1 && ${#positional[@]} <= 2)) || { echo "$usage" >&2; exit 2; }
  if ((update && quick)); then
    echo "$name: --quick pictures are not for docs/img (drop --quick or --update-docs)" >&2
    exit 2
  fi
  wormnet=${positional[0]}
  out=${positional[1]:-$default_out}
}
