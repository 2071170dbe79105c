# Issue 24 item 1: the engine, the shim, the Lmod hook and the Environment Modules hook read the
# map's tables by one contract, and say the same of each fixture: stale, cut short, foreign owner,
# a linked map, a FIFO, another file, a newer format, a copied map, a trusted group.
source "$(dirname "$0")/common.sh"
d=$t/site

fixture="a freshly validated map"; fresh "$d"; verdict "$d/map.toml" believed

fixture="a map edited since"; fresh "$d"
echo '# edited' >>"$d/map.toml"
verdict "$d/map.toml" stale

fixture="another map of the same size and mtime"; fresh "$d"
sed 's/"5\.0\.5"/"5.0.6"/' "$d/map.toml" >"$d/other" && touch -r "$d/map.toml" "$d/other"
mv "$d/other" "$d/map.toml"
verdict "$d/map.toml" stale

fixture="a touched map of the same content"; fresh "$d"
touch -d '+3 seconds' "$d/map.toml"
verdict "$d/map.toml" believed

fixture="tables cut short"; fresh "$d"
for f in $(tables "$d"); do head -n -1 "$f" >"$f.cut" && touch -r "$f" "$f.cut" && mv "$f.cut" "$f"; done
verdict "$d/map.toml" cut-short

fixture="tables of a newer format"; fresh "$d"
for f in $(tables "$d"); do
  sed '1s/^\(cudnn-compat-[a-z-]*\) [0-9]*/\1 99/' "$f" >"$f.new" && touch -r "$f" "$f.new" && mv "$f.new" "$f"
done
verdict "$d/map.toml" other-format

fixture="a map reached through a link"; fresh "$d"
mv "$d/map.toml" "$d/real.toml" && ln -s real.toml "$d/map.toml"
verdict "$d/map.toml" map-not-a-file

fixture="FIFOs at the tables' names"; fresh "$d"
for f in $(tables "$d"); do rm "$f" && mkfifo "$f"; done
verdict "$d/map.toml" not-a-file

fixture="tables that are links"; fresh "$d"
mkdir "$d/elsewhere"
for f in $(tables "$d"); do mv "$f" "$d/elsewhere/" && ln -s "elsewhere/${f##*/}" "$f"; done
verdict "$d/map.toml" not-a-file

fixture="no tables"; fresh "$d"
rm $(tables "$d")
verdict "$d/map.toml" missing

fixture="a map others may write"; fresh "$d"
chmod 0666 "$d/map.toml"
verdict "$d/map.toml" map-untrusted

fixture="a directory others may write"; fresh "$d"
chmod 0777 "$d"
verdict "$d/map.toml" dir-untrusted

fixture="tables others may write"; fresh "$d"
chmod 0666 $(tables "$d")
verdict "$d/map.toml" table-untrusted

# Issue 25 item 3: a copy of the map keeps its tables, with its mtimes (cp -p, rsync -a, an image)
# or without (configuration management writes new files).
fixture="a copied map (cp -p)"; fresh "$d"
mkdir "$t/copy" && cp -p "$d"/map.toml* "$t/copy/"
verdict "$t/copy/map.toml" believed
fixture="a copied map (cp, the tables first)"; rm -rf "$t/copy" && mkdir "$t/copy"
cp $(tables "$d") "$t/copy/" && sleep 1.1 && cp "$d/map.toml" "$t/copy/"
verdict "$t/copy/map.toml" believed

if [[ $(id -u) == 0 ]]; then
  fixture="tables of another owner"; fresh "$d"
  chown 4321 $(tables "$d")
  verdict "$d/map.toml" table-untrusted
  # Issue 25 item 8: the admins' group may write the directory, the map and its tables.
  group=$(getent group daemon | cut -d: -f1)
  [[ -n $group ]] || fail "no group daemon on this machine"
  fixture="a group-writable directory, no trusted group"; fresh "$d"
  chgrp "$group" "$d" && chmod 2775 "$d"
  verdict "$d/map.toml" dir-untrusted
  fixture="a group-writable directory of the trusted group"; rm -rf "$d" && mkdir "$d"
  chgrp "$group" "$d" && chmod 2775 "$d"
  POLICY="trusted_group = \"$group\"
" fake_map >"$d/map.toml"
  chmod 0664 "$d/map.toml"
  "$CUDNN_COMPAT" map validate "$d/map.toml" >/dev/null
  verdict "$d/map.toml" believed
  fixture="a group-writable directory of another group than the trusted one"
  chgrp nogroup "$d"
  verdict "$d/map.toml" dir-untrusted
else
  echo "not root: the fixtures of another owner and of a trusted group are left out"
fi
