# Issue 24 item 1: the specification (docs/contract.md, the source of cudnn-compat-map(5)'s FILES
# section) states every value of the one description (cmake/SiteContract.cmake): a format raised
# there and not in the specification fails here.
source "$(dirname "$0")/../scenario.sh"
: "${SOURCE:?}"
description=$SOURCE/cmake/SiteContract.cmake spec=$SOURCE/docs/contract.md
out=$(cat "$spec")
n=0
# set(SITE_<NAME> "value") or set(SITE_<NAME> value), for the values a reader compares with a file.
pattern='^set\(SITE_[A-Z_]*(SUFFIX|FORMAT|END_LINE|NO_GROUP|CUDNN_WORD|OWN_MODULE|SYSTEM_MAP) "?([^")]*)"?\)'
while IFS= read -r line; do
  [[ $line =~ $pattern ]] || continue
  has "${BASH_REMATCH[2]}"
  n=$((n + 1))
done <"$description"
[[ $n == 13 ]] || fail "read $n values from $description, expected 13"
