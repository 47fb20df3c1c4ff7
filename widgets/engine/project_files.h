#pragma once
// The script's own modules a remote engine needs (docs/remote.md): the Python files under the
// script's folder, sent with each run by their paths here, so its imports find them on the
// other machine under the same names. Hidden folders, __pycache__ and virtual environments
// are left out; past 2000 files or 32 MiB the rest is, and `leftOut` counts the files and
// folders not sent.

#include <map>
#include <string>

#include <QString>

namespace fusescope::gui {

struct ProjectFiles {
    std::map<std::string, std::string> texts;  // absolute path -> text
    int leftOut = 0;  // files and folders not sent
};

// For the script at `scriptPath` (absolute; none for an unsaved script).
ProjectFiles projectFiles(const QString& scriptPath);

}  // namespace fusescope::gui
