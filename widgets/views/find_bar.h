#pragma once
// Find and replace in the editor tab on show (the script's, or a module's: those are
// read-only, so find only), as a bar under the tabs. Ctrl+F opens it with the selected text
// or the word at the cursor; typing shows the first match from the cursor on, Enter and F3
// go to the next one, Shift+Enter and Shift+F3 to the one before (wrapping at the ends);
// "3 of 12" says where. Ctrl+H opens the replace row too: Replace changes the match on show
// and goes on, Replace All changes every match as one undo step. Esc hides the bar.

#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QsciScintilla;

namespace fusescope::gui {

class ScriptTabs;

class FindBar : public QWidget {
    Q_OBJECT
public:
    explicit FindBar(ScriptTabs* tabs, QWidget* parent = nullptr);

    void showFind();
    void showReplace();
    bool findNext() { return find(true); }
    bool findPrevious() { return find(false); }
    void replaceOne();
    int replaceAll();  // how many were replaced

    QLineEdit* findField() const { return find_; }
    QLineEdit* replaceField() const { return replace_; }
    QLabel* countLabel() const { return count_; }
    QCheckBox* matchCase() const { return matchCase_; }
    QCheckBox* wholeWords() const { return wholeWords_; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QsciScintilla* editor() const;
    void open(bool withReplace);
    bool find(bool forward);
    // Searches from the cursor's line and index (forward) or the selection's start (backward).
    bool findFrom(int line, int index, bool forward);
    bool selectionIsMatch() const;
    void showCount();
    void followEditor();

    ScriptTabs* tabs_;
    QLineEdit* find_;
    QLineEdit* replace_;
    QCheckBox* matchCase_;
    QCheckBox* wholeWords_;
    QLabel* count_;
    QPushButton* replaceButton_;
    QPushButton* replaceAllButton_;
};

}  // namespace fusescope::gui
