// Code-address locations (runtime/core/include/ascgen/code_site.h): symbolised only when a report needs them.
//
// A site holds the return addresses of the intrinsic's call chain in a kernel module (the devkit backend).
// `addr2line -i` expands each address into its inline chain (the module has line tables); the user's line is
// the innermost entry whose file is none of the site's `not_user` prefixes (the library tree, ascgen's
// runtime, the system headers, the module wrapper), and the function just inside it is the library call
// made on that line: "add.cpp:42 (AscendC::DataCopy) -> copy_gm_to_ubuf". Results are cached on the site.
#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "ascgen/code_site.h"
#include "state.h"

extern char** environ;

namespace ascgen {
namespace core {

namespace sites {   // named: runtime/core is compiled as one unity translation unit

struct SiteText {
    std::string file;     // the user's file as the module's line table names it, or the intrinsic
    int line = 0;         // 0 when no user frame was found
    std::string detail;   // " (AscendC::DataCopy) -> copy_gm_to_ubuf", or ""
};

struct Entry {
    std::string func, file;
    int line = 0;
};

std::mutex g_mu;

// stdout of `argv` (stderr discarded), or "" if it cannot run. Reports are rare, so a process per site is fine.
std::string run_capture(const std::vector<std::string>& args) {
    int fds[2];
    if (pipe(fds) != 0) return "";
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    std::string out;
    if (rc == 0) {
        char buf[4096];
        ssize_t n;
        while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, size_t(n));
        int status = 0;
        waitpid(pid, &status, 0);
    }
    close(fds[0]);
    return out;
}

// "path:12", "path:12 (discriminator 3)", "??:0", "??:?" -> (path, line); unknown -> ("", 0).
void parse_location(const std::string& text, Entry& e) {
    std::string s = text.substr(0, text.find(" (discriminator"));
    const size_t colon = s.rfind(':');
    if (colon == std::string::npos) return;
    e.file = s.substr(0, colon);
    e.line = std::atoi(s.c_str() + colon + 1);
    if (e.file == "??") e.file.clear();
}

// The inline chains of `offsets` in `module`, innermost first, in the order given.
std::vector<std::vector<Entry>> symbolise(const std::string& module, const std::vector<uintptr_t>& offsets) {
    std::vector<std::string> args = {"addr2line", "-i", "-f", "-C", "-a", "-e", module};
    for (uintptr_t off : offsets) args.push_back(format("0x%llx", (unsigned long long)off));
    const std::string out = run_capture(args);
    std::vector<std::vector<Entry>> chains;
    size_t pos = 0;
    std::vector<std::string> lines;
    while (pos < out.size()) {
        size_t nl = out.find('\n', pos);
        if (nl == std::string::npos) nl = out.size();
        lines.push_back(out.substr(pos, nl - pos));
        pos = nl + 1;
    }
    for (size_t i = 0; i < lines.size();) {
        if (lines[i].rfind("0x", 0) == 0) {      // -a: each address's block starts with the address
            chains.emplace_back();
            ++i;
            continue;
        }
        if (chains.empty() || i + 1 >= lines.size()) break;
        Entry e;
        e.func = lines[i];
        parse_location(lines[i + 1], e);
        chains.back().push_back(e);
        i += 2;
    }
    return chains;
}

bool is_user_file(const std::string& file, const char* not_user) {
    if (file.empty()) return false;
    const size_t slash = file.rfind('/');
    if (file[slash == std::string::npos ? 0 : slash + 1] == '<') return false;   // "<ascgen module wrapper>"...
    const char* p = not_user ? not_user : "";
    while (*p) {
        const char* end = std::strchr(p, '\n');
        const size_t len = end ? size_t(end - p) : std::strlen(p);
        if (len && file.compare(0, len, p, len) == 0) return false;
        if (!end) break;
        p = end + 1;
    }
    return true;
}

// "void AscendC::DataCopy<float>(AscendC::LocalTensor<float> const&, ...)" -> "AscendC::DataCopy".
std::string short_name(const std::string& func) {
    std::string out;
    int depth = 0;
    for (size_t i = 0; i < func.size(); ++i) {
        const char c = func[i];
        if (c == '<' && func.compare(i > 7 ? i - 8 : 0, 8, "operator") != 0) { ++depth; continue; }
        if (c == '>' && depth > 0) { --depth; continue; }
        if (depth > 0) continue;
        if (c == '(' && !(out.size() >= 8 && out.compare(out.size() - 8, 8, "operator") == 0)) break;
        out += c;
    }
    const size_t space = out.rfind(' ');
    return space == std::string::npos ? out : out.substr(space + 1);
}

}  // namespace sites

// ---- relocatable modules (ascgen/runtime/build/relocate.py) -------------------------------------------
// A relocatable module names the files under its source folder "/<ascgen-source-folder>/k.cpp"; Python
// registers each loaded module file's folder, and a reported name is read back under it here.
namespace source_roots {

constexpr char kToken[] = "/<ascgen-source-folder>";     // relocate.TOKEN
std::mutex g_mu;
std::map<std::string, std::string> g_root_of;     // module file (as dlopen was given it) -> its source folder
std::set<std::string> g_names;                     // resolved names: a Loc keeps the pointer, so never freed

bool tokenised(const char* file) {
    return file && std::strncmp(file, kToken, sizeof kToken - 1) == 0;
}

// `file` read under the folder registered for `module`; `file` itself when it is no token name or the
// module has no folder.
std::string in_module(const std::string& file, const std::string& module) {
    if (!tokenised(file.c_str())) return file;
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = g_root_of.find(module);
    return it == g_root_of.end() ? file : it->second + file.substr(sizeof kToken - 1);
}

// The same for a name compiled into a module: the module is the one whose image holds the string. Each
// string is resolved once (a run's events repeat a few call sites many times; modules are never unloaded).
std::map<const char*, const char*> g_by_string;

const char* resolved_name(const char* file) {
    if (!tokenised(file)) return file;
    {
        std::lock_guard<std::mutex> lk(g_mu);
        auto it = g_by_string.find(file);
        if (it != g_by_string.end()) return it->second;
    }
    Dl_info info{};
    if (!dladdr(file, &info) || !info.dli_fname) return file;
    const std::string name = in_module(file, info.dli_fname);
    std::lock_guard<std::mutex> lk(g_mu);
    const char* out = g_names.insert(name).first->c_str();
    g_by_string[file] = out;
    return out;
}

}  // namespace source_roots

namespace sites {

SiteText resolve_now(const rt::CodeSite& site) {
    // Group the frames by module file (one addr2line per file), keeping their order.
    std::map<std::string, std::vector<int>> by_file;
    std::vector<uintptr_t> offsets(site.n);
    std::vector<std::string> files(site.n);
    for (int i = 0; i < site.n; ++i) {
        Dl_info info{};
        if (!dladdr(site.frames[i], &info) || !info.dli_fname) continue;
        // a return address points after the call: step back into it, so the line is the call's
        offsets[i] = reinterpret_cast<uintptr_t>(site.frames[i]) - 1 - reinterpret_cast<uintptr_t>(info.dli_fbase);
        files[i] = info.dli_fname;
        by_file[files[i]].push_back(i);
    }
    std::vector<std::vector<Entry>> chain_of(site.n);
    for (const auto& [file, idx] : by_file) {
        std::vector<uintptr_t> offs;
        for (int i : idx) offs.push_back(offsets[i]);
        auto chains = symbolise(file, offs);
        for (auto& chain : chains)
            for (auto& e : chain) e.file = source_roots::in_module(e.file, file);
        for (size_t k = 0; k < idx.size() && k < chains.size(); ++k) chain_of[idx[k]] = std::move(chains[k]);
    }
    std::vector<Entry> all;   // every inline level of every frame, innermost first
    for (auto& c : chain_of) all.insert(all.end(), c.begin(), c.end());
    SiteText t;
    t.file = site.intrinsic ? site.intrinsic : "?";
    for (size_t i = 0; i < all.size(); ++i) {
        if (!is_user_file(all[i].file, site.not_user)) continue;
        t.file = all[i].file;
        t.line = all[i].line;
        const std::string callee = i > 0 ? short_name(all[i - 1].func) : "";
        const std::string intrinsic = site.intrinsic ? site.intrinsic : "";
        const bool same = callee == intrinsic ||
                          (callee.size() >= intrinsic.size() + 2 &&
                           callee.compare(callee.size() - intrinsic.size() - 2, std::string::npos, "::" + intrinsic) == 0);
        // The core's task-sync and SyncAll reports already name the call (the recogniser's name is the API's).
        if (callee.empty()) t.detail = " (" + intrinsic + ")";
        else if (!same) t.detail = " (" + callee + ") -> " + intrinsic;
        break;
    }
    return t;
}

const SiteText& resolve_site(const rt::CodeSite& site) {
    const void* done = site.resolved.load(std::memory_order_acquire);
    if (done) return *static_cast<const SiteText*>(done);
    std::lock_guard<std::mutex> lk(g_mu);
    done = site.resolved.load(std::memory_order_acquire);
    if (!done) {
        done = new SiteText(resolve_now(site));    // lives as long as the site's module: never freed
        const_cast<rt::CodeSite&>(site).resolved.store(done, std::memory_order_release);
    }
    return *static_cast<const SiteText*>(done);
}

}  // namespace sites

rt::Loc resolved(rt::Loc loc) {
    if (!rt::is_code_site(loc)) return rt::Loc{source_roots::resolved_name(loc.file), loc.line};
    const sites::SiteText& t = sites::resolve_site(*reinterpret_cast<const rt::CodeSite*>(loc.file));
    return rt::Loc{t.file.c_str(), t.line};
}

std::string site_detail(rt::Loc loc) {
    if (!rt::is_code_site(loc)) return "";
    return sites::resolve_site(*reinterpret_cast<const rt::CodeSite*>(loc.file)).detail;
}

}  // namespace core
}  // namespace ascgen

namespace ascgen {
namespace rt {
void module_copy(const char* copy, const char* original) {
    using namespace ascgen::core::source_roots;
    std::lock_guard<std::mutex> lk(g_mu);
    auto it = g_root_of.find(original);
    if (it != g_root_of.end()) g_root_of[copy] = it->second;
}
}  // namespace rt
}  // namespace ascgen

extern "C" void ascgen_source_root(const char* module, const char* root) {
    std::lock_guard<std::mutex> lk(ascgen::core::source_roots::g_mu);
    ascgen::core::source_roots::g_root_of[module] = root;
}
