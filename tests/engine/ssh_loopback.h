#pragma once
// A real OpenSSH server on a loopback port, for the tests of the remote engine (docs/remote.md):
// Debian's sshd (openssh-server, scripts/install-deps), started with host and client keys it
// generates in a private folder, listening on 127.0.0.1 only and accepting only its own
// client key for the user running the tests; stopped, with the folder removed, when destroyed.
// As root, sshd needs its privilege separation folder /run/sshd, which is made when missing.

#include <string>

namespace fusescope::loopback {

class SshLoopback {
public:
    SshLoopback();
    ~SshLoopback();
    SshLoopback(const SshLoopback&) = delete;
    SshLoopback& operator=(const SshLoopback&) = delete;

    // Why it is not serving ("" when it is): sshd or ssh-keygen missing, sshd failed to start.
    const std::string& error() const { return error_; }
    int port() const { return port_; }
    const std::string& user() const { return user_; }
    // The ssh command that reaches it with its keys, FUSESCOPE_SSH_COMMAND's value:
    // "ssh -F <folder>/ssh_config".
    std::string sshCommand() const;
    // "ssh://user@127.0.0.1:port" followed by `remotePath`.
    std::string url(const std::string& remotePath) const;
    // Kills sshd's per-connection processes: every session drops as a lost network would drop
    // it; the server goes on accepting. How many it killed.
    int killSessions();

private:
    std::string folder_;
    std::string user_;
    std::string error_;
    int port_ = 0;
    int pid_ = -1;
};

}  // namespace fusescope::loopback
