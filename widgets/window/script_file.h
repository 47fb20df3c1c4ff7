#pragma once
// The script in the editor and the file behind it: Save and Save As, and the copy of unsaved
// edits kept aside every few seconds (restored at the next start), so an edited script is
// never lost; closing with edits not saved asks first.

#include <QObject>
#include <QString>

class QsciScintilla;
class QWidget;

namespace fusescope::gui {

class ScriptFile : public QObject {
    Q_OBJECT
public:
    ScriptFile(QsciScintilla* editor, QWidget* window);

    const QString& path() const { return path_; }  // "" when the text has no file yet
    // The script's name as a run gives it: its whole path (modules beside it are found as
    // Python finds them), or script.py while unsaved.
    QString runName() const { return path_.isEmpty() ? QString("script.py") : path_; }

    // Puts `text` in the editor, from the file at `path` ("" for a text with no file behind
    // it, such as what an opened log says of itself); edits kept aside are dropped.
    void open(const QString& text, const QString& path);
    // Saves to the file, asking where first when there is none or `choosePath`; false when
    // not saved (cancelled, or `failed` said why).
    bool save(bool choosePath = false);
    // Whether the window may close: unsaved edits are saved, discarded or the close cancelled,
    // as the user answers (without asking when `interactive` is off).
    bool mayClose(bool interactive);
    // At start: brings back what the last session left unsaved.
    void restoreAutosave();
    static QString autosavePath();

Q_SIGNALS:
    void status(const QString& text);
    void failed(const QString& title, const QString& text);
    void pathChanged(const QString& path);

private:
    void autosave();
    void discardAutosave();  // after open or save: the copy is no longer needed

    QsciScintilla* editor_;
    QWidget* window_;  // the dialogs' parent
    QString path_;
};

}  // namespace fusescope::gui
