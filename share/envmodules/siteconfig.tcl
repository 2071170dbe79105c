# cudnn-compat's Environment Modules site configuration: warns (or, with [policy]
# on_module_mismatch = "error", fails the whole command) when the loaded cuDNN module does not fit
# a loaded application, and warns when it cannot run on this node's GPUs or driver (docs/gpu.md).
#
# Use it as the site configuration:
#   export MODULES_SITECONFIG=<prefix>/share/cudnn-compat/envmodules/siteconfig.tcl
# or from an existing one:   source <prefix>/share/cudnn-compat/envmodules/siteconfig.tcl
#
# An application's modulefile says what it was built with:
#   cudnn-requires 5.1                      (or: cudnn-requires 8.9 --cuda 12)
# which is short for the standard commands (that work without this file)
#   prepend-path CUDNN_COMPAT_NEEDS tensorflow/1.0=5.1        ;# "<module>=<version>[,cuda=N]"
#   pushenv CUDNN_COMPAT_REQUIRE 5.1                          ;# for the shim
# Environment Modules undoes both on unload; the hook reads the loaded needs from
# CUDNN_COMPAT_NEEDS.
#
# The check runs once per module command that loaded something, on the final loaded set, just
# before the environment changes are printed; versions and rule come from the version map through
# `cudnn-compat module-check`, the engine the shim uses. The tables the engine writes beside the map
# answer the usual cases without starting it: map.toml.fits when everything fits, map.toml.misfits
# (its own messages, written in advance) for a misfit. Every fault of ours ends in at most one line:
# nothing here may break `module load`.

# The installation this file belongs to, from the file's own path
# (share/cudnn-compat/envmodules/ under the prefix): an installed tree that was moved keeps working.
# (`file normalize` resolves links in every component but the last: the ".." makes this file one
# of them, so a siteconfig.tcl reached through a link finds the prefix it belongs to.) Its names,
# formats and layout come from the contract beside it (site_contract.tcl, generated from
# cmake/SiteContract.cmake); its tables are read by site_tables.tcl. Both are sourced by a command
# that loaded a module (the GPU check reads the node's facts, then the decision table only where
# they are known); a command that loads nothing costs what it did.
set cudnn_compat_here [file normalize [file join [info script] ..]]
proc cudnn_compat_load_contract {} {
   if {[info exists ::cudnn_compat_bin]} { return }
   uplevel #0 [list source [file join $::cudnn_compat_here site_contract.tcl]]
   uplevel #0 [list source [file join $::cudnn_compat_here site_tables.tcl]]
   if {[catch {set ::cudnn_compat_bin $::env(CUDNN_COMPAT_BIN)}]} {
      set ::cudnn_compat_bin [file join [file normalize [file join $::cudnn_compat_here\
         $::cudnn_compat_site(prefix_from_here)]] $::cudnn_compat_site(bindir) cudnn-compat]
   }
}

lappend modulefile_extra_cmds cudnn-requires cudnn-requires

# An application's need travels as state the module system itself sets and undoes: a path-like
# entry "<module>=<version>[,cuda=N]" in CUDNN_COMPAT_NEEDS per loaded application, and
# CUDNN_COMPAT_REQUIRE / CUDNN_COMPAT_CUDA for the shim. A modulefile may write the same two lines
# itself and then needs no siteconfig at all.
proc cudnn-requires {version args} {
   set cuda {}
   if {[lindex $args 0] eq {--cuda}} {
      set cuda [lindex $args 1]
   }
   set entry "[module-info name]=$version[expr {$cuda eq {} ? {} : ",cuda=$cuda"}]"
   switch -- [currentState mode] {
      load {
         prepend-path CUDNN_COMPAT_NEEDS $entry
         # pushenv: unloading one of two applications gives the shim the other's need back.
         pushenv CUDNN_COMPAT_REQUIRE $version
         if {$cuda ne {}} { pushenv CUDNN_COMPAT_CUDA $cuda }
      }
      unload {
         prepend-path-un CUDNN_COMPAT_NEEDS $entry
         pushenv-un CUDNN_COMPAT_REQUIRE $version
         if {$cuda ne {}} { pushenv-un CUDNN_COMPAT_CUDA $cuda }
      }
   }
}

# The loaded modules as the command found them (its first load or switch, before any change; a
# modulefile's own `module load` comes later): a refused command leaves them so.
proc cudnn_compat_note_load {args} {
   if {![info exists ::cudnn_compat_before]} {
      set ::cudnn_compat_before [cudnn_compat_env_list LOADEDMODULES]
   }
}

# The needs of the loaded applications as this command leaves them: Environment Modules has
# already applied the command's loads and unloads to the environment it is about to render.
# Each access to ::env costs some 50,000 instructions (Tcl's env traces; callgrind): read each
# variable once, with catch where it may be unset.
proc cudnn_compat_loaded_needs {} {
   set needs {}
   if {![catch {set value $::env(CUDNN_COMPAT_NEEDS)}]} {
      foreach entry [split $value :] {
         if {[string first = $entry] > 0} { lappend needs $entry }
      }
   }
   return $needs
}

# The loaded modules' names (LOADEDMODULES) or files (_LMFILES_), as the command leaves them: the
# documented variables, not modulecmd.tcl's getLoadedModulePropertyList (renamed in 5.4).
proc cudnn_compat_env_list {var} {
   if {[catch {set value $::env($var)}] || $value eq {}} { return {} }
   return [split $value :]
}

# The map, looked up in the engine's order.
proc cudnn_compat_map {} {
   if {![catch {set map $::env(CUDNN_COMPAT_MAP)}] && $map ne {}} {
      return $map
   }
   # (file join: a map_from_here that is absolute replaces the directory.) Installed under /usr,
   # the installed map is the system map (there is no /usr/etc).
   set installed [file normalize [file join $::cudnn_compat_here\
      $::cudnn_compat_site(map_from_here)]]
   if {$::cudnn_compat_here eq $::cudnn_compat_site(fhs_here)\
      && [file pathtype $::cudnn_compat_site(map_from_here)] ne {absolute}} {
      set installed $::cudnn_compat_site(system_map)
   }
   foreach p [list $installed $::cudnn_compat_site(system_map)] {
      if {[file exists $p]} { return $p }
   }
   return {}
}

# Whether the map asks for module commands to fail on a misfit, read here for when the engine that
# would say so cannot be run.
proc cudnn_compat_strict {} {
   if {[catch {set fh [open [cudnn_compat_map] r]; set text [read $fh]; close $fh}]} {
      return 0
   }
   return [regexp -line {^\s*on_module_mismatch\s*=\s*(\"error\"|'error')} $text]
}

# The lines of a table the engine writes with the map (map.toml.fits or map.toml.misfits, see
# format_fits_table) of this kind, into the list named by var, when the contract's rule believes
# it (site_tables.tcl); 0 otherwise.
proc cudnn_compat_table {kind var} {
   upvar $var lines
   set map [cudnn_compat_map]
   return [expr {$map ne {} && [cudnn_compat_read_table $map\
      $::cudnn_compat_site(${kind}_suffix) $::cudnn_compat_site(${kind}_format) lines] eq\
      {believed}}]
}

# map.toml.fits into the array named by var: the pairs it lists as fitting need no process at all.
proc cudnn_compat_fits_table {var} {
   upvar $var t
   if {![cudnn_compat_table fits lines]} { return 0 }
   set t(modules) {}
   foreach line $lines {
      set t($line) 1
      if {[string range $line 0 1] eq "M\t"} { lappend t(modules) [string range $line 2 end] }
   }
   return 1
}

# Whether a loaded cuDNN module is not in the fits table t (a user's own; the contract's rule for a
# cuDNN module's name): only the engine can judge it, by probing its library.
proc cudnn_compat_unlisted {tvar loaded} {
   upvar $tvar t
   foreach m $loaded {
      set sn [string tolower [lindex [split $m /] 0]]
      if {![info exists t(M\t$m)] && [string first $::cudnn_compat_site(cudnn_word) $sn] >= 0 &&
         $sn ne $::cudnn_compat_site(own_module)} {
         return 1
      }
   }
   return 0
}

# Whether the fits table t decides every (loaded cuDNN module, need) pair as fitting.
proc cudnn_compat_all_fit {tvar loaded needs} {
   upvar $tvar t
   foreach n $needs {
      if {![info exists t(N\t$n)]} { return 0 }
      foreach m $loaded {
         if {[info exists t(M\t$m)] && ![info exists t(F\t$m\t$n)]} { return 0 }
      }
   }
   return 1
}

# The rest of the line of text that starts with key (key begins with a newline), into the variable
# named by var; 0 when there is no such line.
proc cudnn_compat_line_rest {text key var} {
   upvar $var rest
   set at [string first $key $text]
   if {$at < 0} { return 0 }
   set from [expr {$at + [string length $key]}]
   set rest [string range $text $from [expr {[string first \n $text $from] - 1}]]
   return 1
}

# The findings for the loaded set from map.toml.misfits, into the list named by var as {severity
# message} pairs in module-check's order (the map's modules, then the needs as loaded); 0 when a
# pair is not there (a misfit whose advice depends on the application's toolchain, a need the
# fits table t does not know): module-check is asked then.
proc cudnn_compat_table_findings {tvar loaded entries var} {
   upvar $tvar t $var findings
   set findings {}
   # Its advice is for one application: beside another, only a release fitting both will do.
   if {[llength $entries] > 1 || ![cudnn_compat_table misfits w]} { return 0 }
   # A site with many cuDNN modules has a long table: search it, rather than split every line.
   set w \n[join $w \n]\n
   foreach m $t(modules) {
      if {[lsearch -exact $loaded $m] < 0} { continue }
      # The module's group: modules of the same releases share their lines, the name marked (site_contract.tcl).
      if {![cudnn_compat_line_rest $w \nG\t$m\t g]} { return 0 }
      foreach entry $entries {
         set eq [string first = $entry]
         set need [string range $entry [expr {$eq + 1}] end]
         if {![info exists t(N\t$need)]} { return 0 }
         if {[info exists t(F\t$m\t$need)]} { continue }
         if {![cudnn_compat_line_rest $w \nW\t$g\t$need\t rest]} { return 0 }
         set tab [string first \t $rest]
         set severity [string range $rest 0 [expr {$tab - 1}]]
         set text [string range $rest [expr {$tab + 1}] end]
         lappend findings [list $severity [string range $entry 0 [expr {$eq - 1}]][string map\
            [list $::cudnn_compat_site(module_mark) $m $::cudnn_compat_site(swap_mark) switch]\
            $text]]
      }
   }
   return 1
}

# ---------------------------------------------------------------------------------------------
# The node's GPUs (issue 22, docs/gpu.md): whether each loaded cuDNN module's release can run on
# this node's GPUs and driver. The verdicts are the engine's, written with the map into its
# decision table (map.toml.decide: a "run" row per release lists the known GPUs it runs on and the
# least driver CUDA it needs, "rel" rows its module, "fit" rows the releases best first); the
# node's facts are the overrides or the node file the engine wrote for this boot. Nothing here
# judges device code: a GPU the table does not list, a node not learnt yet, say nothing.

proc cudnn_compat_read_text {path} {
   if {[catch {set fh [open $path r]; set text [read $fh]; close $fh}]} { return {} }
   return $text
}

# The node file's bytes, at most limit of them (no newline translation: a CR stays a CR), or {}.
proc cudnn_compat_read_bytes {path limit} {
   if {[catch {set fh [open $path {RDONLY NONBLOCK}]; fconfigure $fh -translation binary
      set text [read $fh $limit]; close $fh}]} { return {} }
   return $text
}

# The node file's grammar (shim/shared/node_file.h): its five lines in this order, each
# "key\tvalue" with no control character in the value, then the end line and nothing after; the
# values into the array named by var, or 0 for anything else (a CR, a NUL, a line twice).
proc cudnn_compat_node_parse {text var} {
   upvar $var f
   set pattern ^
   set values {}
   foreach key $::cudnn_compat_site(node_file_keys) {
      append pattern "$key\t(\[^\t\n\]*)\n"
      lappend values f($key)
   }
   if {[string length $text] > $::cudnn_compat_site(node_file_max) ||\
      [regexp {[\x00-\x08\x0a-\x1f\x7f]} [string map [list \t {} \n {}] $text]] ||\
      ![regexp "$pattern\(.*)\$" $text -> {*}$values rest]} {
      return 0
   }
   return [expr {$rest eq "$::cudnn_compat_site(end_line)\n"}]
}

# "7.5" -> 75 (scale 10 1), "12.2" -> 12020 (scale 1000 10): the table's numbering; {} when not
# X.Y, X one or two digits and not 0, Y one digit (every reader's grammar, docs/contract.md).
proc cudnn_compat_dotted {s major_scale minor_scale} {
   if {![regexp {^([0-9]{1,2})\.([0-9])$} $s -> a b] || [scan $a %d] == 0} { return {} }
   return [expr {[scan $a %d] * $major_scale + $b * $minor_scale}]
}

# The node's facts into the array named by var (gpus, driver, words); 0 when not known.
proc cudnn_compat_node_facts {var} {
   upvar $var node
   array set f {problem {} gpus {} driver {} source {}}
   catch {set f(gpus) $::env(CUDNN_COMPAT_GPU_ARCH)}
   catch {set f(driver) $::env(CUDNN_COMPAT_DRIVER_CUDA)}
   if {$f(gpus) ne {} || $f(driver) ne {}} {
      # One override and the rest learnt, or a bad value: the engine's to say (this hook judged
      # the GPUs alone where Lmod's and the shim say nothing).
      if {$f(gpus) eq {} || $f(driver) eq {}} { return 0 }
      set f(source) CUDNN_COMPAT_GPU_ARCH
   } else {
      if {![regexp {\nUid:\s+[0-9]+\s+([0-9]+)} [cudnn_compat_read_text /proc/self/status] -> uid]\
         || ![regexp {^\s*(\S+)} [cudnn_compat_read_text $::cudnn_compat_site(boot_id)] -> boot]} {
         return 0
      }
      # A $SLURMD_NODENAME that cannot be a file's name (shim/shared/node_file.h) is passed over.
      set usable {^[^/\x00-\x1f\x7f]+$}
      # The host name whole, as uname(2) gives it to the shim and the engine (its first word was
      # another node's name when it held a space).
      if {[catch {set name $::env(SLURMD_NODENAME)}] || ![regexp $usable $name]} {
         regsub {\n$} [cudnn_compat_read_text /proc/sys/kernel/hostname] {} name
      }
      if {![regexp $usable $name]} { return 0 }
      # Only a directory of the user's own that nobody else may write, as its writer demands.
      set dir $::cudnn_compat_site(node_dir_prefix)$uid
      if {[catch {file lstat $dir st}] || $st(type) ne {directory} || $st(uid) != $uid ||\
         ($st(mode) & 022) != 0} {
         return 0
      }
      # And the file itself a regular file of the user's own (a FIFO would hold the module command).
      set file $dir/$::cudnn_compat_site(node_file_prefix)$name
      # Not larger than any the engine writes, by its size: a file of GBs is never read.
      set max $::cudnn_compat_site(node_file_max)
      if {[catch {file lstat $file fst}] || $fst(type) ne {file} || $fst(uid) != $uid ||\
         ($fst(mode) & 022) != 0 || $fst(size) > $max} {
         return 0
      }
      if {![cudnn_compat_node_parse [cudnn_compat_read_bytes $file [expr {$max + 1}]] f]} {
         return 0
      }
      # Of this boot (shim/shared/node_file.h): modified since the boot moment and not later than
      # now, as every reader demands, and its boot line, as the readers that read the boot id do.
      set now [clock seconds]
      if {![regexp {^([0-9]+)} [cudnn_compat_read_text /proc/uptime] -> up] ||\
         $fst(mtime) < $now - $up - 1 || $fst(mtime) > $now} {
         return 0
      }
      if {![info exists f(boot)] || $f(boot) ne $boot} { return 0 }
   }
   if {$f(problem) ne {} || $f(gpus) eq {}} { return 0 }
   set node(gpus) {}
   foreach g [split $f(gpus) ,] {
      set n [cudnn_compat_dotted $g 10 1]
      if {$n eq {}} { return 0 }
      lappend node(gpus) $n
   }
   set node(driver) {}
   if {$f(driver) ne {}} {
      set node(driver) [cudnn_compat_dotted $f(driver) 1000 10]
      if {$node(driver) eq {}} { return 0 }
   }
   set node(words) "compute capability $f(gpus)"
   if {$node(driver) ne {}} { append node(words) " with a CUDA $f(driver) driver" }
   append node(words) " ($f(source))"
   set node(overridden) [expr {$f(source) eq {CUDNN_COMPAT_GPU_ARCH}}]
   return 1
}

proc cudnn_compat_listed {csv n} {
   return [expr {[string first ",$n," ",$csv,"] >= 0}]
}

# Whether the table's entry runs on the node: 1, 0 (and why into whyvar), or -1: cannot say.
proc cudnn_compat_runs {entry whyvar} {
   upvar $whyvar why
   upvar #0 cudnn_compat_gpu g
   if {![info exists g(run,$entry)]} { return -1 }
   lassign $g(run,$entry) gpus driver
   foreach n $g(node,gpus) {
      if {![cudnn_compat_listed $g(known) $n]} { return -1 }
      if {$gpus ne {*} && ![cudnn_compat_listed $gpus $n]} {
         set why "its release carries no code for compute capability [expr {$n / 10}].[expr {$n % 10}]"
         return 0
      }
   }
   if {$driver ne {-} && $g(node,driver) ne {} && $g(node,driver) < $driver} {
      set why "it needs a driver for CUDA [expr {$driver / 1000}].[expr {$driver % 1000 / 10}]"
      return 0
   }
   return 1
}

# The warnings for the loaded modules whose every release the table says cannot run here.
proc cudnn_compat_gpu_findings {loaded} {
   global cudnn_compat_gpu
   array unset cudnn_compat_gpu
   if {![cudnn_compat_node_facts node] || ![cudnn_compat_table decide lines]} { return {} }
   set cudnn_compat_gpu(node,gpus) $node(gpus)
   set cudnn_compat_gpu(node,driver) $node(driver)
   set cudnn_compat_gpu(known) {}
   set rel {}
   foreach line $lines {
      set f [split $line \t]
      switch -- [lindex $f 0] {
         gpus { set cudnn_compat_gpu(known) [lindex $f 1] }
         gpu { if {[llength $f] >= 3} { set first([lindex $f 1]) [lindex $f 2] } }
         rel { if {[llength $f] >= 6} { lappend rel [lindex $f 1] [lindex $f 4] [lindex $f 5] } }
         run {
            if {[llength $f] >= 4} {
               set cudnn_compat_gpu(run,[lindex $f 1]) [list [lindex $f 2] [lindex $f 3]]
            }
         }
         fit {
            if {[lindex $f 2] eq {-} && [lindex $f 3] eq {-}} {
               set cudnn_compat_gpu(best,[lindex $f 1]) [lindex $f 4]
            }
         }
      }
   }
   # Overrides naming a GPU and a driver too old to know it contradict each other: the engine
   # says so and keeps the loader's choice; so does a GPU the table has no first driver for.
   if {$node(overridden)} {
      foreach n $node(gpus) {
         if {![info exists first($n)] ||\
            ($first($n) ne {-} && (![string is digit -strict $first($n)] ||\
                                   $node(driver) < $first($n)))} {
            return {}
         }
      }
   }
   set findings {}
   foreach m $loaded {
      set seen 0
      set fits 0
      set why {}
      foreach {entry version module} $rel {
         if {$module ne $m} { continue }
         set seen 1
         set reason {}
         if {[cudnn_compat_runs $entry reason] != 0} { set fits 1 }
         set v $version
         if {$why eq {}} { set why $reason }
      }
      if {!$seen || $fits} { continue }
      set text "$m (cuDNN $v) cannot run on this node, $node(words): $why"
      set major [lindex [split $v .] 0]
      set other {}
      if {[info exists cudnn_compat_gpu(best,$major)]} {
         foreach e [split $cudnn_compat_gpu(best,$major) ,] {
            set r {}
            if {[cudnn_compat_runs $e r] != 1} { continue }
            foreach {entry version module} $rel {
               if {$entry eq $e && $module ne {-} && $other eq {}} { set other $module }
            }
            if {$other ne {}} { break }
         }
      }
      if {$other ne {}} { append text "; $other runs here: module switch $m $other" }
      lappend findings $text
   }
   return $findings
}

# module-check's findings for the loaded set (before: as the command found it): the errors into
# the list named by errors_var, the warnings reported.
proc cudnn_compat_ask {loaded before entries errors_var} {
   upvar $errors_var errors
   set cmd [list $::cudnn_compat_bin module-check --system envmodules]
   # The modulefile tells the application's toolchain (Compiler/GCC/12.3.0/...) to the advice.
   foreach name $loaded file [cudnn_compat_env_list _LMFILES_] {
      # One word per option: Tcl's pipelines take a word starting with < or > as a redirection.
      lappend cmd --loaded=$name=$file
   }
   foreach entry $entries {
      lappend cmd --need=$entry
   }
   # A refusal's advice starts from before the command (module-check phrases it).
   foreach name $loaded {
      if {[lsearch -exact $before $name] < 0} { lappend cmd --command-loaded=$name }
   }
   foreach name $before {
      if {[lsearch -exact $loaded $name] < 0} { lappend cmd --command-unloaded=$name }
   }
   if {![file executable $::cudnn_compat_bin]} {
      set say "cudnn-compat: cannot run $::cudnn_compat_bin; the loaded cuDNN modules were\
         not checked (is cudnn-compat installed there?)"
      if {[cudnn_compat_strict]} { lappend errors $say } else { reportWarning $say }
      return
   }
   set fh [open |[concat $cmd [list 2>@1]] r]
   set out [read $fh]
   catch {close $fh}
   foreach line [split [string trimright $out \n] \n] {
      if {[regexp {^error: (.*)} $line -> msg]} {
         lappend errors "cudnn-compat: $msg"
      } elseif {[regexp {^warning: (.*)} $line -> msg]} {
         reportWarning "cudnn-compat: $msg"
      } elseif {$line ne {}} {
         reportWarning "cudnn-compat: $line"
      }
   }
}

proc cudnn_compat_check {args} {
   if {![info exists ::cudnn_compat_before]} {
      return
   }
   set before $::cudnn_compat_before
   unset ::cudnn_compat_before
   set errors {}
   if {[catch {
      set loaded [cudnn_compat_env_list LOADEDMODULES]
      set entries [cudnn_compat_loaded_needs]
      set needs {}
      foreach entry $entries {
         lappend needs [string range $entry [expr {[string first = $entry] + 1}] end]
      }
      cudnn_compat_load_contract
      foreach w [cudnn_compat_gpu_findings $loaded] {
         reportWarning "cudnn-compat: $w"
      }
      # The tables answer without a process: everything fits, or the misfits' messages.
      set tables [expr {[llength $needs] > 0 && [cudnn_compat_fits_table t] &&\
         ![cudnn_compat_unlisted t $loaded]}]
      if {[llength $needs] == 0 || ($tables && [cudnn_compat_all_fit t $loaded $needs])} {
         # nothing to say
      } elseif {$tables && [cudnn_compat_table_findings t $loaded $entries findings]} {
         foreach f $findings {
            lassign $f severity msg
            # Tagged as every line of ours is (Lmod's hook says "cudnn-compat: warning: ...").
            set msg "cudnn-compat: $msg"
            if {$severity eq {error}} { lappend errors $msg } else { reportWarning $msg }
         }
      } else {
         cudnn_compat_ask $loaded $before $entries errors
      }
   } err]} {
      reportWarning "cudnn-compat: the module check failed ($err)"
   }
   # Fail the whole command before any change is printed: the environment stays as it was.
   if {[llength $errors] > 0} {
      reportErrorAndExit [join $errors \n]
   }
}

trace add execution cmdModuleLoad enter cudnn_compat_note_load
trace add execution cmdModuleSwitch enter cudnn_compat_note_load
trace add execution renderSettings enter cudnn_compat_check
