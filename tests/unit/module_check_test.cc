#include "cudnn_compat.h"
#include "site_contract.h"
#include "text.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

// A place of the map that is not handed out (hand_out = false).
Installed withheld(const char *version, const char *lib, Version cuda, const char *module) {
  Installed e{*parse_dotted(version), lib, cuda, module, {}};
  e.hand_out = false;
  return e;
}

Map site() {
  Map m;
  m.path = "map.toml";
  m.cudnn.push_back(
      {*parse_dotted("5.0.5"), "/opt/5.0.5/lib64", Version{8, 0, {}, {}}, "cudnn/5.0", {}});
  m.cudnn.push_back(
      {*parse_dotted("5.1.10"), "/opt/5.1.10/lib64", Version{8, 0, {}, {}}, "cudnn/5.1", {}});
  m.cudnn.push_back({*parse_dotted("8.9.7"),
                     "/opt/8.9.7/lib64",
                     Version{12, 2, {}, {}},
                     "cuDNN/8.9.7.29-CUDA-12.2.0",
                     {}});
  return m;
}

// The loaded modules as a hook reports them (modulefiles unknown).
ModuleScene loaded(std::initializer_list<const char *> names,
                   ModuleSystemKind system = ModuleSystemKind::lmod) {
  ModuleScene s;
  s.system = system;
  for (const char *n : names) s.loaded.push_back({n, ""});
  return s;
}

TEST(ModuleCheck, ParsesNeeds) {
  const Parsed<AppNeed> a = parse_app_need("pytorch/2.1=8.9,cuda=12");
  ASSERT_TRUE(a) << a.error;
  EXPECT_EQ(a->module, "pytorch/2.1");
  EXPECT_EQ(to_string(a->cudnn), "8.9");
  EXPECT_EQ(a->cuda_major, 12);
  EXPECT_FALSE(parse_app_need("tensorflow/1.0"));
  EXPECT_FALSE(parse_app_need("=5.1"));
  EXPECT_FALSE(parse_app_need("tf=five"));
  EXPECT_NE(parse_app_need("tf=5.1,gpu=1").error.find("is not cuda=N"), std::string::npos);
  EXPECT_EQ(parse_app_need("tf\nINJECTED=5.1").error,
            "'tf\\nINJECTED': no module name holds a control character");
}

TEST(ModuleCheck, SilentWhenItFitsOrNoCudnnModuleIsLoaded) {
  const Map m = site();
  const std::vector<AppNeed> tf{*parse_app_need("tensorflow/1.0=5.1")};
  EXPECT_TRUE(check_loaded_modules(m, tf, loaded({"tensorflow/1.0", "cudnn/5.1"})).empty());
  EXPECT_TRUE(check_loaded_modules(m, tf, loaded({"tensorflow/1.0", "gcc/12"})).empty());
  EXPECT_TRUE(check_loaded_modules(m, {}, loaded({"cudnn/5.0"})).empty());
}

TEST(ModuleCheck, NamesBothVersionsTheRuleAndTheFix) {
  Map m = site();
  const std::vector<ModuleFinding> f = check_loaded_modules(
      m, {*parse_app_need("tensorflow/1.0=5.1")}, loaded({"cudnn/5.0", "tensorflow/1.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_FALSE(f[0].error);
  EXPECT_EQ(
      f[0].message,
      "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5; before cuDNN 7 "
      "the minor version must match (5.0 vs 5.1). Use: module swap cudnn/5.0 cudnn/5.1   (5.1.10)");
  m.policy.on_module_mismatch = OnMismatch::error;
  EXPECT_TRUE(
      check_loaded_modules(m, {*parse_app_need("tensorflow/1.0=5.1")}, loaded({"cudnn/5.0"}))[0]
          .error);
}

// A refused command took no effect: the advice starts from the modules loaded before it.
TEST(ModuleCheck, AfterARefusalTheAdviceIsTheCommandAgainOrTheSwapAndItsLoads) {
  Map m = site();
  m.policy.on_module_mismatch = OnMismatch::error;
  const std::vector<AppNeed> tf{*parse_app_need("tensorflow/1.0=5.1")};
  const auto advice = [&](ModuleScene scene, std::vector<std::string> loads,
                          std::vector<std::string> unloads) {
    scene.command_loaded = std::move(loads), scene.command_unloaded = std::move(unloads);
    const std::vector<ModuleFinding> f = check_loaded_modules(m, tf, scene);
    EXPECT_EQ(f.size(), 1u);
    return f.empty() ? std::string() : f[0].message.substr(f[0].message.find("Use: "));
  };
  // `module load tensorflow/1.0 cudnn/5.0`: neither is loaded after the refusal.
  EXPECT_EQ(advice(loaded({"tensorflow/1.0", "cudnn/5.0"}), {"tensorflow/1.0", "cudnn/5.0"}, {}),
            "Use: module load tensorflow/1.0 cudnn/5.1   (5.1.10)");
  // `module load tensorflow/1.0` beside cudnn/5.0, loaded before: swap it, then the command.
  EXPECT_EQ(advice(loaded({"cudnn/5.0", "tensorflow/1.0"}), {"tensorflow/1.0"}, {}),
            "Use: module swap cudnn/5.0 cudnn/5.1 && module load tensorflow/1.0   (5.1.10)");
  // `module switch cuDNN/8.9... cudnn/5.0`: the old module is loaded again after the refusal.
  EXPECT_EQ(advice(loaded({"tensorflow/1.0", "cudnn/5.0"}, ModuleSystemKind::envmodules),
                   {"cudnn/5.0"}, {"cuDNN/8.9.7.29-CUDA-12.2.0"}),
            "Use: module switch cuDNN/8.9.7.29-CUDA-12.2.0 cudnn/5.1   (5.1.10)");
  // A module the command reloaded (unloaded and loaded again) was loaded before it.
  EXPECT_EQ(advice(loaded({"tensorflow/1.0", "cudnn/5.0"}), {"cudnn/5.0", "tensorflow/1.0"},
                   {"tensorflow/1.0"}),
            "Use: module load cudnn/5.1   (5.1.10)");
  // A warning (the command took effect) is a plain swap, whatever the command loaded.
  m.policy.on_module_mismatch = OnMismatch::warn;
  EXPECT_EQ(advice(loaded({"tensorflow/1.0", "cudnn/5.0"}), {"tensorflow/1.0", "cudnn/5.0"}, {}),
            "Use: module swap cudnn/5.0 cudnn/5.1   (5.1.10)");
}

// An Lmod hierarchy (Spack's Core/gcc/...): a module reached through a parent not loaded cannot be
// swapped in; the advice loads the parent first, and prefers a module the loaded parents reach.
TEST(ModuleCheck, AModuleBehindAParentIsLoadedAfterIt) {
  Map m = site();
  m.cudnn[1].load_first = {"gcc/12.2.0"};
  const std::vector<AppNeed> tf{*parse_app_need("tensorflow/1.0=5.1")};
  const auto advice = [&](const ModuleScene &scene) {
    const std::vector<ModuleFinding> f = check_loaded_modules(m, tf, scene);
    EXPECT_EQ(f.size(), 1u);
    return f.empty() ? std::string() : f[0].message.substr(f[0].message.find("Use: "));
  };
  EXPECT_EQ(advice(loaded({"cudnn/5.0", "tensorflow/1.0"})),
            "Use: module unload cudnn/5.0 && module load gcc/12.2.0 cudnn/5.1   (5.1.10)");
  EXPECT_NE(advice(loaded({"gcc/11.3.0", "cudnn/5.0", "tensorflow/1.0"}))
                .find("(5.1.10; it loads gcc/12.2.0 in place of gcc/11.3.0"),
            std::string::npos);
  EXPECT_EQ(advice(loaded({"gcc/12.2.0", "cudnn/5.0", "tensorflow/1.0"})),
            "Use: module swap cudnn/5.0 cudnn/5.1   (5.1.10)");
  // Refused, the command having loaded the parent: it is among the command's loads again.
  m.policy.on_module_mismatch = OnMismatch::error;
  ModuleScene refused = loaded({"gcc/12.2.0", "tensorflow/1.0", "cudnn/5.0"});
  refused.command_loaded = {"gcc/12.2.0", "tensorflow/1.0", "cudnn/5.0"};
  EXPECT_EQ(advice(refused), "Use: module load gcc/12.2.0 tensorflow/1.0 cudnn/5.1   (5.1.10)");
  // ... or another version of it: loading both would swap the parent out again.
  // It swaps the compiler, which may take the application away: said.
  refused = loaded({"gcc/11.3.0", "tensorflow/1.0", "cudnn/5.0"});
  refused.command_loaded = {"gcc/11.3.0", "tensorflow/1.0", "cudnn/5.0"};
  EXPECT_EQ(
      advice(refused),
      "Use: module load gcc/12.2.0 tensorflow/1.0 cudnn/5.1   (5.1.10; it loads gcc/12.2.0 in "
      "place of gcc/11.3.0: modules loaded for gcc/11.3.0 go inactive unless built for "
      "gcc/12.2.0 too)");
  m.policy.on_module_mismatch = OnMismatch::warn;
  // Of two fitting releases, the one the loaded parents reach comes first.
  m.cudnn.push_back({*parse_dotted("5.1.10"),
                     "/opt/gcc11/5.1.10/lib64",
                     Version{8, 0, {}, {}},
                     "cudnn/5.1-gcc11",
                     {}});
  m.cudnn.back().load_first = {"gcc/11.3.0"};
  EXPECT_EQ(advice(loaded({"gcc/11.3.0", "cudnn/5.0", "tensorflow/1.0"}))
                .starts_with("Use: module swap cudnn/5.0 cudnn/5.1-gcc11   (5.1.10); or: "
                             "module unload cudnn/5.0 && module load gcc/12.2.0 cudnn/5.1"),
            true)
      << advice(loaded({"gcc/11.3.0", "cudnn/5.0", "tensorflow/1.0"}));
  // Its advice depends on the loaded parents: the hooks' table leaves it to module-check.
  const std::string table = format_misfits_table(m, {});
  EXPECT_EQ(table.find("\t5.1\twarning\t"), std::string::npos) << table;
  EXPECT_NE(table.find("\t8.9\twarning\t"), std::string::npos) << table;
}

// One cuDNN module is loaded for every application: the advice is a release that fits them all,
// else that none does (an outside admin's finding: the advice for one was refused for the other,
// round in a circle).
TEST(ModuleCheck, TwoApplicationsAdviceFitsBothOrSaysNoneDoes) {
  Map m = site();
  m.cudnn.push_back(
      {*parse_dotted("7.6.5"), "/opt/7.6.5/lib64", Version{10, 2, {}, {}}, "cudnn/7.6", {}});
  const std::vector<AppNeed> apps{*parse_app_need("caffe/1.0=7.6"),
                                  *parse_app_need("tensorflow/1.0=5.1")};
  std::vector<ModuleFinding> f =
      check_loaded_modules(m, apps, loaded({"caffe/1.0", "cudnn/7.6", "tensorflow/1.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("No cuDNN module fits both tensorflow/1.0 (cuDNN 5.1) and caffe/1.0 "
                              "(cuDNN 7.6): load them in separate shells or jobs (cudnn/5.1, "
                              "5.1.10, fits tensorflow/1.0 alone)"),
            std::string::npos)
      << f[0].message;
  EXPECT_EQ(f[0].message.find("Use:"), std::string::npos) << f[0].message;
  // Two applications one release fits: that one.
  f = check_loaded_modules(m,
                           {*parse_app_need("tensorflow/1.0=5.1"), *parse_app_need("tf-addons=5")},
                           loaded({"cudnn/5.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("Use: module swap cudnn/5.0 cudnn/5.1"), std::string::npos)
      << f[0].message;
}

// The advice is pasted into a shell: a module name or parent from the map (or from a module tree
// scan read) is a word, never a command (an outside tester's finding).
TEST(ModuleCheck, TheAdviceQuotesWhatIsNoPlainModuleName) {
  Map m = site();
  m.cudnn[1].module = "cudnn/$(id)";
  m.cudnn[1].load_first = {"gcc/12;touch", "x"};
  const std::vector<ModuleFinding> f = check_loaded_modules(
      m, {*parse_app_need("tensorflow/1.0=5.1")}, loaded({"gcc/12;touch", "cudnn/5.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("Use: module unload cudnn/5.0 && module load x 'cudnn/$(id)'"),
            std::string::npos)
      << f[0].message;
  EXPECT_EQ(shell_word("it's"), "'it'\\''s'");
  EXPECT_EQ(shell_word("cuDNN/8.9.7.29-CUDA-12.2.0"), "cuDNN/8.9.7.29-CUDA-12.2.0");
  EXPECT_EQ(shell_word(""), "''");
  // The hooks put a table's module name back as it is: such a module is left to module-check.
  EXPECT_EQ(format_misfits_table(m, {}).find("G\tcudnn/$(id)"), std::string::npos);
}

// A refused switch away from the fitting module leaves it loaded: nothing to run.
TEST(ModuleCheck, NothingToRunWhenTheRefusalLeftTheFittingModule) {
  Map m = site();
  m.policy.on_module_mismatch = OnMismatch::error;
  ModuleScene s = loaded({"tensorflow/1.0", "cudnn/5.0"});
  s.command_loaded = {"cudnn/5.0"}, s.command_unloaded = {"cudnn/5.1"};
  const std::vector<ModuleFinding> f =
      check_loaded_modules(m, {*parse_app_need("tensorflow/1.0=5.1")}, s);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("Nothing to run: cudnn/5.1 (5.1.10), which fits, is still loaded"),
            std::string::npos)
      << f[0].message;
}

TEST(ModuleCheck, CudaAndNothingInstalled) {
  const Map m = site();
  std::vector<ModuleFinding> f = check_loaded_modules(
      m, {*parse_app_need("pytorch/2.1=8.9,cuda=11")}, loaded({"cuDNN/8.9.7.29-CUDA-12.2.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("it is built for CUDA 12.2, not CUDA 11"), std::string::npos);
  // The map may predate a release installed since: "installed" would not be the truth. What to
  // ask for is built for the CUDA needed: an 8.9.7 for CUDA 12.2 is installed.
  EXPECT_NE(f[0].message.find("No cuDNN module in the version map fits; ask the admins for cuDNN "
                              "8.9 or a newer 8.x built for CUDA 11 (or, if one is installed, to "
                              "add it to the map"),
            std::string::npos)
      << f[0].message;
}

TEST(ModuleCheck, OnlyAWithheldModuleFitsAndTheWarningSaysSo) {
  Map m = site();
  m.cudnn.push_back(
      withheld("8.9.8", "/opt/8.9.8/lib64", Version{11, 8, {}, {}}, "cudnn/8.9.8-debug"));
  std::vector<ModuleFinding> f = check_loaded_modules(
      m, {*parse_app_need("pytorch/2.1=8.9,cuda=11")}, loaded({"cuDNN/8.9.7.29-CUDA-12.2.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("No cuDNN module the site hands out fits: cudnn/8.9.8-debug (8.9.8) "
                              "would, but the map withholds it"),
            std::string::npos)
      << f[0].message;
  EXPECT_EQ(f[0].message.find("module swap"), std::string::npos) << f[0].message;
}

TEST(ModuleCheck, AMajorAloneIsANeedForAnyReleaseOfIt) {
  const Map m = site();
  EXPECT_TRUE(check_loaded_modules(m, {*parse_app_need("app/1=5")}, loaded({"cudnn/5.0"})).empty());
  const std::vector<ModuleFinding> f =
      check_loaded_modules(m, {*parse_app_need("app/1=8")}, loaded({"cudnn/5.0"}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_NE(f[0].message.find("app/1 was built with cuDNN 8 but cudnn/5.0 provides 5.0.5"),
            std::string::npos)
      << f[0].message;
  EXPECT_NE(f[0].message.find("module swap cudnn/5.0 cuDNN/8.9.7.29-CUDA-12.2.0"),
            std::string::npos)
      << f[0].message;
  // The hooks' table decides a major alone in advance.
  EXPECT_NE(format_fits_table(m, {}).find("\nF\tcudnn/5.0\t5\n"), std::string::npos);
}

// The advice is the command that works in the user's module system, never a hidden module, and
// the application's own toolchain first (issue 12 item 5).
TEST(ModuleCheck, AdvisesTheCommandThatWorks) {
  Map m = site();
  m.cudnn.push_back({*parse_dotted("9.0.0"),
                     "/eb/software/cuDNN/9.0.0.312-CUDA-12.2.0/lib64",
                     Version{12, 2, {}, {}},
                     "cuDNN/9.0.0.312-CUDA-12.2.0",
                     {}});
  m.cudnn.push_back({*parse_dotted("9.1.0"),
                     "/spack/opt/cudnn-9.1.0.70-12-abcdefg/lib",
                     Version{12, 4, {}, {}},
                     "cudnn/9.1.0.70-12-abcdefg",
                     {}});
  // A hidden module: the map's parser withholds it by default (hand_out = false).
  m.cudnn.push_back(withheld("9.2.0", "/opt/9.2.0/lib64", Version{12, 4, {}, {}}, "cudnn/.9.2"));
  const auto advice = [&](const char *need, ModuleScene s) {
    const std::vector<ModuleFinding> f = check_loaded_modules(m, {*parse_app_need(need)}, s);
    if (f.empty()) return std::string("(fits)");
    const std::string &text = f[0].message;
    return text.substr(text.find("Use: "));
  };
  // No toolchain: the newest visible release; the hidden 9.2.0 is never advised.
  EXPECT_EQ(advice("plain/1=9.0,cuda=12", loaded({"cuDNN/8.9.7.29-CUDA-12.2.0", "plain/1"})),
            "Use: module swap cuDNN/8.9.7.29-CUDA-12.2.0 cudnn/9.1.0.70-12-abcdefg   (9.1.0); "
            "or: module swap cuDNN/8.9.7.29-CUDA-12.2.0 cuDNN/9.0.0.312-CUDA-12.2.0   (9.0.0)");
  // Environment Modules says switch.
  EXPECT_EQ(advice("plain/1=5.1", loaded({"cudnn/5.0"}, ModuleSystemKind::envmodules)),
            "Use: module switch cudnn/5.0 cudnn/5.1   (5.1.10)");
  // An EasyBuild application, by its tree or by its EBROOT, gets the EasyBuild cuDNN first.
  ModuleScene eb = loaded({"cuDNN/8.9.7.29-CUDA-12.2.0"});
  eb.loaded.push_back({"jax/0.4.23", "/apps/modules/Compiler/GCC/12.3.0/jax/0.4.23.lua"});
  EXPECT_NE(advice("jax/0.4.23=9.0,cuda=12", eb).find("cuDNN/9.0.0.312-CUDA-12.2.0   (9.0.0);"),
            std::string::npos);
  ModuleScene by_root = loaded({"cuDNN/8.9.7.29-CUDA-12.2.0", "py-jax/0.4"});
  by_root.ebroots = {"EBROOTPYMINJAX"};
  EXPECT_NE(
      advice("py-jax/0.4=9.0,cuda=12", by_root).find("cuDNN/9.0.0.312-CUDA-12.2.0   (9.0.0);"),
      std::string::npos);
  // A Spack application gets the Spack cuDNN first, also when the map prefers the oldest.
  m.policy.prefer = Prefer::oldest;
  EXPECT_NE(advice("py-jax/0.4-hijklmn=9.0,cuda=12", loaded({"cuDNN/8.9.7.29-CUDA-12.2.0"}))
                .find("cudnn/9.1.0.70-12-abcdefg   (9.1.0);"),
            std::string::npos);
  // With no cuDNN module loaded, load.
  EXPECT_EQ(module_command(loaded({"gcc/12"}), &m, "", m.cudnn[1]), "module load cudnn/5.1");
  EXPECT_EQ(loaded_cudnn_module(loaded({"cudnn/5.0", "gcc/12", "cudnn/mine"}), &m, 5), "cudnn/5.0");
  EXPECT_TRUE(hidden_module("cudnn/.9.2") && hidden_module(".cudnn/9") &&
              !hidden_module("cudnn/9.2"));
}

TEST(Modulefiles, TheRootOfALibraryDirectory) {
  EXPECT_EQ(cudnn_root("/opt/cudnn/8.9/lib64"), "/opt/cudnn/8.9");
  EXPECT_EQ(cudnn_root("/opt/cudnn/8.9/lib64/"), "/opt/cudnn/8.9");  // the same directory
  EXPECT_EQ(cudnn_root("/opt/cudnn/8.9/lib/"), "/opt/cudnn/8.9");
  EXPECT_EQ(cudnn_root("/opt/cudnn/8.9"), "/opt/cudnn/8.9");
}

TEST(Modulefiles, LuaAndTclCarryTheSameFacts) {
  const Installed e{
      *parse_dotted("5.1.10"), "/opt/cudnn/5.1.10/lib64", Version{8, 0, {}, {}}, "cudnn/5.1", {}};
  EXPECT_EQ(cuda_module_name(e, "CUDA/{cuda}"), "CUDA/8.0");
  EXPECT_EQ(cuda_module_name(e, ""), "");
  EXPECT_EQ(cuda_module_name({*parse_dotted("9.1.0"), "/x", {}, "", {}}, "cuda/{cuda}"), "");
  const Modulefile lua = cudnn_modulefile(e, ModuleFormat::lua, true, "cuda/8.0");
  EXPECT_EQ(lua.path, "cudnn/5.1.lua");
  for (const char *s :
       {"family(\"cudnn\")", "whatis(\"Version: 5.1.10\")",
        "setenv(\"CUDNN_ROOT\", \"/opt/cudnn/5.1.10\")",
        "prepend_path(\"LD_LIBRARY_PATH\", \"/opt/cudnn/5.1.10/lib64\")",
        "prepend_path(\"CPATH\", \"/opt/cudnn/5.1.10/include\")",
        "prepend_path(\"CMAKE_PREFIX_PATH\", \"/opt/cudnn/5.1.10\")",
        "isAvail(\"cuda/8.0\") then\n  depends_on(\"cuda/8.0\")",
        "whatis(\"Description: The NVIDIA CUDA Deep Neural Network library", "help([==["})
    EXPECT_NE(lua.text.find(s), std::string::npos) << s;
  const Modulefile tcl = cudnn_modulefile(e, ModuleFormat::tcl, false, "cuda/8.0");
  EXPECT_EQ(tcl.path, "cudnn/5.1");
  EXPECT_EQ(tcl.text.rfind("#%Module", 0), 0u);
  for (const char *s : {"family cudnn", "module-whatis \"cuDNN 5.1.10 for CUDA 8.0\"",
                        "prepend-path LD_LIBRARY_PATH \"/opt/cudnn/5.1.10/lib64\"",
                        "prepend-path CMAKE_PREFIX_PATH \"/opt/cudnn/5.1.10\"",
                        "[is-avail \"cuda/8.0\"]} {\n  prereq \"cuda/8.0\"",
                        "module-whatis \"Homepage: https://developer.nvidia.com/cudnn\""})
    EXPECT_NE(tcl.text.find(s), std::string::npos) << s;
  // What a path may hold is quoted, not run: Tcl's $ [ ] { } and \, and line ends in both.
  const Installed odd{*parse_dotted("5.1.10"), "/opt/a{b}$c[d]\\\n/lib64", {}, "cudnn/5.1", {}};
  EXPECT_NE(cudnn_modulefile(odd, ModuleFormat::tcl, false, "")
                .text.find("LD_LIBRARY_PATH \"/opt/a\\{b\\}\\$c\\[d\\]\\\\\\n/lib64\"\n"),
            std::string::npos);
  EXPECT_NE(cudnn_modulefile(odd, ModuleFormat::lua, false, "")
                .text.find("\"LD_LIBRARY_PATH\", \"/opt/a{b}$c[d]\\\\\\n/lib64\")"),
            std::string::npos);
  EXPECT_EQ(tcl.text.find("CPATH"), std::string::npos);
  EXPECT_EQ(
      cudnn_modulefile({*parse_dotted("9.1.0"), "/x", {}, "", {}}, ModuleFormat::lua, false, "")
          .name,
      "cudnn/9.1.0");
  EXPECT_NE(shim_modulefile("/p/libcudnn-compat.so", "/etc/m.toml", ModuleFormat::lua)
                .text.find("prepend_path(\"LD_AUDIT\", \"/p/libcudnn-compat.so\")"),
            std::string::npos);
}

}  // namespace
}  // namespace cudnn_compat

namespace cudnn_compat {
namespace {

// The hooks' table lists exactly the pairs check_loaded_modules finds fitting.
TEST(ModuleCheck, FitsTableAgreesWithTheCheck) {
  Map m;
  m.cudnn.push_back({*parse_dotted("5.0.5"), "/a", Version{8, 0, {}, {}}, "cudnn/5.0", {}});
  m.cudnn.push_back({*parse_dotted("5.1.10"), "/b", Version{8, 0, {}, {}}, "cudnn/5.1", {}});
  m.cudnn.push_back({*parse_dotted("8.9.7"), "/c", Version{12, 2, {}, {}}, "cudnn/8.9", {}});
  m.cudnn.push_back({*parse_dotted("9.1.0"), "/d", std::nullopt, "", {}});
  const std::string t = format_fits_table(m, FileStamp{2, 205, 7'000'000'000, 0});
  EXPECT_EQ(t.substr(0, t.find('\n') + 1),
            stamp_line(TableKind::fits, FileStamp{2, 205, 7'000'000'000, 0}));
  EXPECT_TRUE(t.ends_with("\n" + std::string(table_end())));  // a table cut short is not believed
  for (const char *line : {"N\t5.1", "N\t5.1.10,cuda=8", "N\t8.9,cuda=12", "N\t9.1.0",
                           "M\tcudnn/8.9", "F\tcudnn/5.1\t5.1", "F\tcudnn/8.9\t8.9,cuda=12"})
    EXPECT_NE(t.find(std::string("\n") + line + "\n"), std::string::npos) << line;
  for (const char *line : {"F\tcudnn/5.0\t5.1", "F\tcudnn/5.1\t8.9", "M\t\n"})
    EXPECT_EQ(t.find(std::string("\n") + line), std::string::npos) << line;
  // Written out by hand from NVIDIA's rule (FACTS.md section 3): before cuDNN 7 the minor must
  // match, from 7 on a newer minor serves; a need's CUDA major must be the release's.
  struct Pair {
    const char *module, *need;
    bool fits;
  };
  int listed = 0;
  for (const Pair &p :
       {Pair{"cudnn/5.0", "5.0", true}, Pair{"cudnn/5.0", "5.1", false},
        Pair{"cudnn/5.0", "5.1.10,cuda=8", false}, Pair{"cudnn/5.1", "5.0", false},
        Pair{"cudnn/5.1", "5.1", true}, Pair{"cudnn/5.1", "5.1.10,cuda=8", true},
        Pair{"cudnn/5.1", "5.1.10,cuda=12", false}, Pair{"cudnn/5.1", "8.9,cuda=12", false},
        Pair{"cudnn/8.9", "8.9,cuda=12", true}, Pair{"cudnn/8.9", "8.9", true},
        Pair{"cudnn/8.9", "8.7", true}, Pair{"cudnn/8.9", "8.9.7,cuda=11", false},
        Pair{"cudnn/8.9", "9.1", false}, Pair{"cudnn/5.1", "9.1", false}}) {
    const std::string need = p.need;
    const std::string what = std::string(p.module) + " for " + need;
    if (t.find("\nN\t" + need + "\n") != std::string::npos) {
      ++listed;
      EXPECT_EQ(t.find("\nF\t" + std::string(p.module) + "\t" + need + "\n") != std::string::npos,
                p.fits)
          << "fits table: " << what;
    }
    EXPECT_EQ(check_loaded_modules(m, {*parse_app_need("a=" + need)}, loaded({p.module})).empty(),
              p.fits)
        << "module-check: " << what;
  }
  EXPECT_EQ(listed, 11);  // the table decides every x.y and full version of a release in advance
}

}  // namespace
}  // namespace cudnn_compat

namespace cudnn_compat {
namespace {

// Every misfit line of map.toml.misfits is module-check's finding for that pair, whatever the
// application's toolchain; a pair whose advice depends on the toolchain is left out (the
// Environment Modules hook then asks module-check).
TEST(ModuleCheck, MisfitsTableIsTheCheckInAdvance) {
  Map m;
  m.cudnn.push_back({*parse_dotted("8.9.7"),
                     "/eb/8.9.7",
                     Version{12, 2, {}, {}},
                     "cuDNN/8.9.7.29-CUDA-12.2.0",
                     {}});
  m.cudnn.push_back({*parse_dotted("9.0.0"),
                     "/eb/9.0.0",
                     Version{12, 2, {}, {}},
                     "cuDNN/9.0.0.312-CUDA-12.2.0",
                     {}});
  m.cudnn.push_back({*parse_dotted("9.1.0"),
                     "/spack/9.1.0",
                     Version{12, 4, {}, {}},
                     "cudnn/9.1.0.70-12-abcdefg",
                     {}});
  const std::string t = format_misfits_table(m, FileStamp{2, 205, 7'000'000'000, 0});
  EXPECT_EQ(t.substr(0, t.find('\n') + 1),
            stamp_line(TableKind::misfits, FileStamp{2, 205, 7'000'000'000, 0}));
  EXPECT_TRUE(t.ends_with("\n" + std::string(table_end())));
  const std::string old = "cuDNN/8.9.7.29-CUDA-12.2.0";
  const std::size_t g = t.find("\nG\t" + old + "\t");
  ASSERT_NE(g, std::string::npos);
  const std::string group = t.substr(g + old.size() + 4, t.find('\n', g + 1) - g - old.size() - 4);
  int lines = 0;
  for (const std::string need : {"9.1", "9.1.0,cuda=12", "8.9", "9.0", "9.0,cuda=12"}) {
    const std::string key = "\nW\t" + group + "\t" + need + "\twarning\t";
    const std::size_t at = t.find(key);
    // Both hooks read it: each puts back the module's name and its own word for a swap.
    for (const auto &[system, swap] : {std::pair{ModuleSystemKind::envmodules, "switch"},
                                       std::pair{ModuleSystemKind::lmod, "swap"}})
      for (const char *tree : {"/apps/x.lua", "/apps/Compiler/GCC/12.3.0/x.lua", "/spack/x.lua"}) {
        ModuleScene scene = loaded({old.c_str()}, system);
        scene.loaded.push_back({"app/1", tree});
        const std::vector<ModuleFinding> f =
            check_loaded_modules(m, {*parse_app_need("app/1=" + need)}, scene);
        if (at == std::string::npos) continue;
        ASSERT_EQ(f.size(), 1u) << need;
        std::string text = t.substr(at + key.size(), t.find('\n', at + 1) - at - key.size());
        for (std::size_t mark; (mark = text.find(SITE_MODULE_MARK)) != std::string::npos;)
          text.replace(mark, 1, old);
        for (std::size_t mark; (mark = text.find(SITE_SWAP_MARK)) != std::string::npos;)
          text.replace(mark, 1, swap);
        EXPECT_EQ("app/1" + text, f[0].message) << need << " from " << tree;
      }
    lines += at != std::string::npos;
  }
  EXPECT_EQ(lines, 2);  // 9.1 and 9.1.0,cuda=12: only Spack's 9.1.0 fits
  // 9.0: EasyBuild's 9.0.0 and Spack's 9.1.0 fit, in an order that depends on the toolchain.
  EXPECT_EQ(t.find("\nW\t" + group + "\t9.0\t"), std::string::npos);
  EXPECT_EQ(t.find("\nW\t" + group + "\t9.0,cuda=12\t"), std::string::npos);
  EXPECT_EQ(t.find("\nW\t" + group + "\t8.9\t"), std::string::npos);  // fits: no line
}

}  // namespace
}  // namespace cudnn_compat

namespace cudnn_compat {
namespace {

// A warning names three fixes at most, and says how many more fit.
TEST(ModuleCheck, AdviceNamesThreeFixesAtMost) {
  Map m = site();
  for (int patch = 1; patch <= 4; ++patch)
    m.cudnn.push_back({*parse_dotted("5.1." + std::to_string(patch)),
                       "/opt/5.1.x",
                       Version{8, 0, {}, {}},
                       "cudnn/5.1." + std::to_string(patch),
                       {}});
  const std::vector<ModuleFinding> f =
      check_loaded_modules(m, {*parse_app_need("tf/1=5.1")}, loaded({"cudnn/5.0"}));
  ASSERT_EQ(f.size(), 1u);
  std::size_t fixes = 0;
  for (std::size_t at = 0; (at = f[0].message.find("module swap", at)) != std::string::npos; ++at)
    ++fixes;
  EXPECT_EQ(fixes, 3u) << f[0].message;
  EXPECT_NE(f[0].message.find(
                "; 2 more fit (`cudnn-compat resolve --require 5.1 libcudnn.so.5` lists them)"),
            std::string::npos)
      << f[0].message;
}

// Modules of the same release share their lines, and the table stops growing at its budget: a
// site with a thousand modules, or hundreds of releases, gets a table the hook can read.
TEST(ModuleCheck, MisfitsTableStaysSmall) {
  Map many;
  for (int i = 0; i < 1000; ++i)
    many.cudnn.push_back({*parse_dotted(i % 2 ? "5.1.10" : "5.0.5"),
                          "/opt/" + std::to_string(i),
                          Version{8, 0, {}, {}},
                          "cudnn/v" + std::to_string(i),
                          {}});
  std::string t = format_misfits_table(many, FileStamp{});
  // The stamp, a G line per module, per group the 4 needs of the other release (x.y and x.y.z,
  // with and without CUDA 8) it misfits, and the end.
  EXPECT_EQ(std::count(t.begin(), t.end(), '\n'), 1 + 1000 + 2 * 4 + 1);
  Map releases;
  for (int minor = 0; minor < 30; ++minor)
    for (int patch = 0; patch < 10; ++patch)
      releases.cudnn.push_back({Version{8, minor, patch, {}},
                                "/opt",
                                Version{12, 2, {}, {}},
                                "cudnn/8." + std::to_string(minor) + "." + std::to_string(patch),
                                {}});
  t = format_misfits_table(releases, FileStamp{});
  EXPECT_LE(t.size(), std::size_t(1) << 20);
  EXPECT_TRUE(t.ends_with("\n" + std::string(table_end())));
}

}  // namespace
}  // namespace cudnn_compat
