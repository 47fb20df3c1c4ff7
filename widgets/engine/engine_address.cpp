#include "engine/engine_address.h"

#include <QCoreApplication>
#include <QProcess>
#include <QRegularExpression>
#include <QUrl>

namespace fusescope::gui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("EngineAddress", text); }

// A word the remote shell takes as it is.
QString shellQuoted(const QString& word) {
    static const QRegularExpression plain("^[A-Za-z0-9_./+:=@,-]+$");
    if (plain.match(word).hasMatch()) return word;
    QString quoted = word;
    return "'" + quoted.replace("'", "'\\''") + "'";
}

QStringList sshCommand() {
    QStringList words = QProcess::splitCommand(qEnvironmentVariable("FUSESCOPE_SSH_COMMAND"));
    return words.isEmpty() ? QStringList{"ssh"} : words;
}

}  // namespace

QString EngineAddress::shown() const {
    if (!isRemote()) return localPath;
    return (user.isEmpty() ? "" : user + "@") + host + (port ? QString(":%1").arg(port) : QString());
}

QString EngineAddress::program() const { return isRemote() ? sshCommand().front() : localPath; }

QStringList EngineAddress::arguments(const QStringList& serveArgs) const {
    if (!isRemote()) return QStringList{"serve"} + serveArgs;
    QStringList args = sshCommand().mid(1);
    args << "-T" << "-e" << "none" << "-o" << "BatchMode=yes" << "-o" << "ServerAliveInterval=5" << "-o" << "ServerAliveCountMax=3";
    if (port) args << "-p" << QString::number(port);
    args << (user.isEmpty() ? host : user + "@" + host) << "--" << shellQuoted(remotePath) << "serve";
    for (const QString& a : serveArgs) args << shellQuoted(a);
    return args;
}

std::optional<EngineAddress> EngineAddress::parse(const QString& text, QString* error) {
    EngineAddress address;
    if (!text.startsWith("ssh://")) {
        if (text.contains("://")) {
            *error = tr("'%1' is neither a path nor an ssh:// address (ssh://user@host[:port]/path/to/fusescope-cli)").arg(text);
            return std::nullopt;
        }
        address.localPath = text;
        return address;
    }
    QUrl url(text, QUrl::TolerantMode);  // a path with spaces as it is written, or with %20
    if (!url.isValid() || url.host().isEmpty() || !url.path().startsWith('/') || url.path().size() < 2 || url.hasQuery() ||
        url.hasFragment() || !url.password().isEmpty()) {
        *error = tr("'%1' is not an engine address: ssh://user@host[:port]/path/to/fusescope-cli (no password: a key or an agent lets ssh in)")
                     .arg(text);
        return std::nullopt;
    }
    address.user = url.userName();
    address.host = url.host();
    address.port = url.port(0);
    address.remotePath = url.path(QUrl::FullyDecoded);
    return address;
}

}  // namespace fusescope::gui
