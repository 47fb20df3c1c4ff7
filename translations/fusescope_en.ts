<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- English plural forms only: the sources say "%n op(s)"; this gives "1 op" and "3 ops".
     Loaded when no other translation is (app/gui/main.cpp); tests/gui/translations_test.cpp
     checks it covers every plural message of the Chinese translation. -->
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>fusescope::gui::EngineClient</name>
    <message numerus="yes">
        <source>%n file(s) or folder(s) beside %1 were not sent to the engine (past 2000 files or 32 MiB, or not UTF-8)</source>
        <translation>
            <numerusform>%n file or folder beside %1 was not sent to the engine (past 2000 files or 32 MiB, or not UTF-8)</numerusform>
            <numerusform>%n files or folders beside %1 were not sent to the engine (past 2000 files or 32 MiB, or not UTF-8)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::FusionStepper</name>
    <message numerus="yes">
        <source>Before fusion: %n scheduler node(s).</source>
        <translation>
            <numerusform>Before fusion: %n scheduler node.</numerusform>
            <numerusform>Before fusion: %n scheduler nodes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GraphView</name>
    <message numerus="yes">
        <source>%1
%n op(s)</source>
        <translation>
            <numerusform>%1
%n op</numerusform>
            <numerusform>%1
%n ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1
%2 · %n op(s)</source>
        <translation>
            <numerusform>%1
%2 · %n op</numerusform>
            <numerusform>%1
%2 · %n ops</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::MainWindow</name>
    <message numerus="yes">
        <source>Exported %n span(s) to %1: open it in ui.perfetto.dev or chrome://tracing</source>
        <translation>
            <numerusform>Exported %n span to %1: open it in ui.perfetto.dev or chrome://tracing</numerusform>
            <numerusform>Exported %n spans to %1: open it in ui.perfetto.dev or chrome://tracing</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TorchCompareView</name>
    <message numerus="yes">
        <source>%n compile(s), %1 with counts that differ. PyTorch&apos;s side: %2</source>
        <translation>
            <numerusform>%n compile, %1 with counts that differ. PyTorch&apos;s side: %2</numerusform>
            <numerusform>%n compiles, %1 with counts that differ. PyTorch&apos;s side: %2</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TraceTreeModel</name>
    <message numerus="yes">
        <source>%n span(s)</source>
        <translation>
            <numerusform>%n span</numerusform>
            <numerusform>%n spans</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TraceView</name>
    <message numerus="yes">
        <source>%n span(s)</source>
        <translation>
            <numerusform>%n span</numerusform>
            <numerusform>%n spans</numerusform>
        </translation>
    </message>
</context>
</TS>
