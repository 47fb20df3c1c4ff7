#pragma once
// Where the workbench's engine runs (docs/remote.md): this machine's fusescope-cli, or one on
// another machine reached over SSH, `ssh://[user@]host[:port]/path/to/fusescope-cli`, with
// OpenSSH's client and the user's own keys and config. FUSESCOPE_SSH_COMMAND replaces `ssh`
// (with options of its own: `ssh -F ~/work/ssh_config`), as GIT_SSH_COMMAND does for git.

#include <optional>

#include <QString>
#include <QStringList>

namespace fusescope::gui {

struct EngineAddress {
    QString localPath;  // this machine's fusescope-cli; "" for a remote one
    QString user;       // "" for ssh's default (its config's, else the local user)
    QString host;       // "" for a local engine
    int port = 0;       // 0 for ssh's default
    QString remotePath;  // fusescope-cli on the remote machine

    bool isRemote() const { return !host.isEmpty(); }
    QString shown() const;  // "user@host:port" or the local path
    QString program() const;
    // What to start `fusescope-cli serve serveArgs` with: the local path itself, or ssh
    // running it on the remote machine (no terminal, no escape character, never asking for a
    // password: a key or an agent must let it in; a dead connection noticed within 15 s).
    QStringList arguments(const QStringList& serveArgs) const;

    // A local path, or an ssh:// URL; nullopt with `error` set when it is neither.
    static std::optional<EngineAddress> parse(const QString& text, QString* error);
};

}  // namespace fusescope::gui
