# The Environment Modules hook's reader of the map's derived tables, under the contract's rule
# (docs/contract.md; the same rule as shim/site_files.c, held to the same verdicts by
# tests/conformance). Sourced by siteconfig.tcl after site_contract.tcl; plain Tcl 8.6.

# Whether others than root, the reader and the trusted group may write the object at path, whose
# `file stat` is in the array named by stvar. `file owned` compares with the effective user id.
proc cudnn_compat_untrusted {path stvar gid} {
   upvar $stvar st
   set group_trusted [expr {$gid >= 0 && $st(gid) == $gid}]
   if {$st(uid) != 0 && ![file owned $path] && !$group_trusted} { return 1 }
   if {$st(mode) & 0002} { return 1 }
   return [expr {($st(mode) & 0020) && !$group_trusted}]
}

# The stamp of a table's first line into the array named by var, when it is one of this format.
proc cudnn_compat_stamp {first format var} {
   upvar $var s
   set f [split $first \t]
   if {[llength $f] != 7 || [lindex $f 0] ne $format} { return 0 }
   lassign $f -> s(ino) s(size) s(mtime) s(nsec) s(crc) gid
   foreach n [list $s(ino) $s(size) $s(mtime) $s(nsec) $s(crc)] {
      if {![string is digit -strict $n]} { return 0 }
   }
   if {$gid eq $::cudnn_compat_site(no_group)} {
      set s(gid) -1
   } elseif {[string is digit -strict $gid]} {
      set s(gid) $gid
   } else {
      return 0
   }
   return 1
}

# Whether the map's content is the one stamped in the array named by svar (a copy keeps it).
proc cudnn_compat_same_content {map msize svar} {
   upvar $svar s
   # Read only when its size is the stamped one: a map that grew to gigabytes is never read.
   if {$msize != $s(size) || [catch {
      set fh [open $map rb]
      set text [read $fh]
      close $fh
   }]} {
      return 0
   }
   return [expr {[string length $text] == $s(size) && [zlib crc32 $text] == $s(crc)}]
}

# The table of the map at path with this suffix and format: its lines between the stamp and the
# end line into the list named by var; returns the verdict (site_files.c's words), "believed" when
# the lines may be used.
proc cudnn_compat_read_table {map suffix format var} {
   upvar $var lines
   set table $map$suffix
   set dir [file dirname $map]
   if {[catch {file lstat $map m; file stat $dir d}] || $m(type) ne {file}} {
      return map-not-a-file
   }
   if {[catch {file lstat $table t}]} { return missing }
   if {$t(type) ne {file}} { return not-a-file }
   if {[catch {
      set fh [open $table rb]
      set text [read $fh]
      close $fh
   }]} {
      return missing
   }
   set eol [string first \n $text]
   if {$eol < 0 || ![cudnn_compat_stamp [string range $text 0 $eol-1] $format s]} {
      return other-format
   }
   if {[cudnn_compat_untrusted $map m $s(gid)]} { return map-untrusted }
   if {[cudnn_compat_untrusted $dir d $s(gid)]} { return dir-untrusted }
   if {[cudnn_compat_untrusted $table t $s(gid)] ||
      ($t(uid) != $m(uid) && !($s(gid) >= 0 && $t(gid) == $s(gid)))} {
      return table-untrusted
   }
   # The map's identity (whole seconds: what Tcl reads) and the table younger than it (git's
   # racy-clean rule), else the map's content.
   if {!($m(ino) == $s(ino) && $m(size) == $s(size) && $m(mtime) == $s(mtime) &&
      $t(mtime) > $m(mtime)) && ![cudnn_compat_same_content $map $m(size) s]} {
      return stale
   }
   set tail \n$::cudnn_compat_site(end_line)\n
   if {[string range $text end-[expr {[string length $tail] - 1}] end] ne $tail} {
      return cut-short
   }
   set lines [split [string range $text $eol+1 end-[string length $tail]] \n]
   return believed
}
