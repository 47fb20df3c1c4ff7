#include "ssh_loopback.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

namespace fusescope::loopback {

namespace fs = std::filesystem;

namespace {

std::string found(const std::vector<std::string>& candidates) {
    for (const auto& c : candidates)
        if (access(c.c_str(), X_OK) == 0) return c;
    return "";
}

// A port free on 127.0.0.1 now (the kernel's pick); sshd binds it a moment later.
int freeLoopbackPort() {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof address;
    int port = 0;
    if (fd >= 0 && bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    if (fd >= 0) close(fd);
    return port;
}

bool accepts(int port) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
    if (fd >= 0) close(fd);
    return ok;
}

// The processes whose parent is `parent`.
std::vector<int> childrenOf(int parent) {
    std::vector<int> children;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        size_t close = text.rfind(')');  // "pid (comm) state ppid ..."
        if (close == std::string::npos) continue;
        std::istringstream rest(text.substr(close + 2));
        char state = 0;
        int ppid = 0;
        if (rest >> state >> ppid && ppid == parent) children.push_back(std::stoi(name));
    }
    return children;
}

}  // namespace

SshLoopback::SshLoopback() {
    const std::string sshd = found({"/usr/sbin/sshd", "/usr/bin/sshd"}), keygen = found({"/usr/bin/ssh-keygen"});
    if (sshd.empty() || keygen.empty()) {
        error_ = "OpenSSH's sshd or ssh-keygen is missing: scripts/install-deps installs openssh-server and openssh-client";
        return;
    }
    const passwd* me = getpwuid(geteuid());
    user_ = me ? me->pw_name : "root";
    std::string pattern = (fs::temp_directory_path() / "fusescope-sshd-XXXXXX").string();
    if (!mkdtemp(pattern.data())) {
        error_ = "cannot make a folder for sshd's keys";
        return;
    }
    folder_ = pattern;
    for (const char* key : {"host_key", "client_key"}) {
        std::string command = keygen + " -q -t ed25519 -N '' -f '" + folder_ + "/" + key + "' < /dev/null > /dev/null 2>&1";
        if (std::system(command.c_str()) != 0) {
            error_ = "ssh-keygen failed";
            return;
        }
    }
    fs::copy_file(folder_ + "/client_key.pub", folder_ + "/authorized_keys");
    if (geteuid() == 0) mkdir("/run/sshd", 0755);  // as root, sshd insists on its privilege separation folder
    port_ = freeLoopbackPort();
    std::ofstream(folder_ + "/sshd_config") << "ListenAddress 127.0.0.1\nPort " << port_ << "\nHostKey " << folder_ << "/host_key\n"
                                            << "PidFile " << folder_ << "/sshd.pid\nAuthorizedKeysFile " << folder_ << "/authorized_keys\n"
                                            << "AllowUsers " << user_ << "\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                                            << "UsePAM no\nStrictModes no\nPermitRootLogin prohibit-password\nLogLevel ERROR\n";
    std::ofstream(folder_ + "/ssh_config") << "Host 127.0.0.1\n  IdentityFile " << folder_ << "/client_key\n  IdentitiesOnly yes\n"
                                           << "  UserKnownHostsFile " << folder_ << "/known_hosts\n  StrictHostKeyChecking accept-new\n"
                                           << "  BatchMode yes\n  LogLevel ERROR\n";
    pid_ = fork();
    if (pid_ == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);  // a test that dies (a crash, a closed pipe) takes its sshd along
        const std::string log = folder_ + "/sshd.log", config = folder_ + "/sshd_config";
        freopen(log.c_str(), "w", stderr);
        execl(sshd.c_str(), sshd.c_str(), "-D", "-e", "-f", config.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    for (auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10); std::chrono::steady_clock::now() < deadline;) {
        if (accepts(port_)) return;
        if (int status = 0; waitpid(pid_, &status, WNOHANG) == pid_) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::ifstream log(folder_ + "/sshd.log");
    error_ = "sshd did not start: " + std::string((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
}

SshLoopback::~SshLoopback() {
    if (pid_ > 0) {
        killSessions();
        kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
    }
    std::error_code ec;
    if (!folder_.empty()) fs::remove_all(folder_, ec);
}

std::string SshLoopback::sshCommand() const { return "ssh -F " + folder_ + "/ssh_config"; }

std::string SshLoopback::url(const std::string& remotePath) const {
    return "ssh://" + user_ + "@127.0.0.1:" + std::to_string(port_) + remotePath;
}

int SshLoopback::killSessions() {
    int killed = 0;
    for (int child : childrenOf(pid_)) killed += kill(child, SIGKILL) == 0;
    return killed;
}

}  // namespace fusescope::loopback
