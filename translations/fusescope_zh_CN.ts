<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Docks</name>
    <message>
        <source>Compiles</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Graph</source>
        <translation>计算图</translation>
    </message>
    <message>
        <source>Minify</source>
        <translation>最小化</translation>
    </message>
    <message>
        <source>Fusion</source>
        <translation>融合</translation>
    </message>
    <message>
        <source>IR (before | after fusion)</source>
        <translation>IR（融合前 | 融合后）</translation>
    </message>
    <message>
        <source>Generated Code</source>
        <translation>生成的代码</translation>
    </message>
    <message>
        <source>Logs</source>
        <translation>日志</translation>
    </message>
    <message>
        <source>Graph Breaks</source>
        <translation>图中断</translation>
    </message>
    <message>
        <source>Guards</source>
        <translation>守卫</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Ours vs PyTorch</source>
        <translation>我们 vs PyTorch</translation>
    </message>
    <message>
        <source>Execution Trace</source>
        <translation>执行追踪</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Modules</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>进程（rank）</translation>
    </message>
</context>
<context>
    <name>EditMenu</name>
    <message>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <source>Cu&amp;t</source>
        <translation>剪切(&amp;T)</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <source>&amp;Find...</source>
        <translation>查找(&amp;F)...</translation>
    </message>
    <message>
        <source>Find &amp;Next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <source>Find Pre&amp;vious</source>
        <translation>查找上一个(&amp;V)</translation>
    </message>
    <message>
        <source>R&amp;eplace...</source>
        <translation>替换(&amp;E)...</translation>
    </message>
</context>
<context>
    <name>EngineWords</name>
    <message>
        <source>tensor &apos;%1&apos; size mismatch at index %2. expected %3, actual %4</source>
        <translation>张量 &apos;%1&apos; 第 %2 维大小不符：期望 %3，实际 %4</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; stride mismatch at index %2. expected %3, actual %4</source>
        <translation>张量 &apos;%1&apos; 第 %2 维步长不符：期望 %3，实际 %4</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; dtype mismatch. expected %2, actual %3</source>
        <translation>张量 &apos;%1&apos; 数据类型不符：期望 %2，实际 %3</translation>
    </message>
    <message>
        <source>tensor &apos;%1&apos; rank mismatch. expected %2, actual %3</source>
        <translation>张量 &apos;%1&apos; 维数不符：期望 %2，实际 %3</translation>
    </message>
    <message>
        <source>Failed to trace builtin operator</source>
        <translation>无法追踪内置运算符</translation>
    </message>
    <message>
        <source>Data-dependent branching</source>
        <translation>依赖数据的分支</translation>
    </message>
    <message>
        <source>Call to `torch._dynamo.graph_break()`</source>
        <translation>调用了 `torch._dynamo.graph_break()`</translation>
    </message>
    <message>
        <source>Unsupported Tensor.item() call with capture_scalar_outputs=False</source>
        <translation>capture_scalar_outputs=False 时不支持调用 Tensor.item()</translation>
    </message>
    <message>
        <source>Unsupported Tensor.backward() call</source>
        <translation>不支持调用 Tensor.backward()</translation>
    </message>
    <message>
        <source>GLOBAL_STATE changed: %1</source>
        <translation>全局状态已改变：%1</translation>
    </message>
    <message>
        <source>fused (vertical): consumers read each element where it is written; iteration %1</source>
        <translation>已融合（纵向）：消费者在每个元素写入处读取它；迭代 %1</translation>
    </message>
    <message>
        <source>fused (horizontal): shared reads over iteration %1</source>
        <translation>已融合（横向）：在迭代 %1 上共享读取</translation>
    </message>
    <message>
        <source>exceeds max fusion (%1 + %2 nodes &gt; max_fusion_size = %3)</source>
        <translation>超过最大融合（%1 + %2 个节点 &gt; max_fusion_size = %3）</translation>
    </message>
    <message>
        <source>%1 is an extern kernel</source>
        <translation>%1 是外部内核</translation>
    </message>
    <message>
        <source>would create a cycle through %1</source>
        <translation>会经由 %1 形成环</translation>
    </message>
    <message>
        <source>iteration ranges differ %1 vs %2</source>
        <translation>迭代范围不同：%1 对 %2</translation>
    </message>
    <message>
        <source>%1 reads %2 at %3 but %4 writes %5</source>
        <translation>%1 在 %3 读取 %2，但 %4 写入的是 %5</translation>
    </message>
</context>
<context>
    <name>FileMenu</name>
    <message>
        <source>&amp;Open Script, Bundle or Trace Log...</source>
        <translation>打开脚本、追踪包或追踪日志(&amp;O)...</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <source>Scripts, bundles, PyTorch trace logs and profiler traces (*.py *.fscope *.log *.json)</source>
        <translation>脚本、追踪包、PyTorch 追踪日志和性能分析追踪 (*.py *.fscope *.log *.json)</translation>
    </message>
    <message>
        <source>Open PyTorch &amp;Trace Folder...</source>
        <translation>打开 PyTorch 追踪文件夹(&amp;T)...</translation>
    </message>
    <message>
        <source>Open the folder TORCH_TRACE named</source>
        <translation>打开 TORCH_TRACE 指定的文件夹</translation>
    </message>
    <message>
        <source>Open PyTorch Trace &amp;Beside...</source>
        <translation>在旁打开 PyTorch 跟踪(&amp;B)...</translation>
    </message>
    <message>
        <source>The TORCH_TRACE folder of a PyTorch run of this script</source>
        <translation>此脚本在 PyTorch 下运行所写的 TORCH_TRACE 文件夹</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save Script</source>
        <translation>保存脚本(&amp;S)</translation>
    </message>
    <message>
        <source>Save Script &amp;As...</source>
        <translation>脚本另存为(&amp;A)...</translation>
    </message>
    <message>
        <source>E&amp;xport Bundle...</source>
        <translation>导出追踪包(&amp;X)...</translation>
    </message>
    <message>
        <source>Export Bundle</source>
        <translation>导出追踪包</translation>
    </message>
    <message>
        <source>Trace bundles (*.fscope)</source>
        <translation>追踪包 (*.fscope)</translation>
    </message>
    <message>
        <source>Export Trace for &amp;Perfetto...</source>
        <translation>导出追踪供 Perfetto 使用(&amp;P)...</translation>
    </message>
    <message>
        <source>Export Trace for Perfetto</source>
        <translation>导出追踪供 Perfetto 使用</translation>
    </message>
    <message>
        <source>Chrome trace JSON (*.json)</source>
        <translation>Chrome 追踪 JSON (*.json)</translation>
    </message>
    <message>
        <source>&amp;Export Graph Image...</source>
        <translation>导出图像(&amp;E)...</translation>
    </message>
    <message>
        <source>Export Graph Image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Connect to &amp;Engine...</source>
        <translation>连接到引擎(&amp;E)...</translation>
    </message>
    <message>
        <source>Connect to Engine</source>
        <translation>连接到引擎</translation>
    </message>
    <message>
        <source>Where the engine runs: ssh://user@host[:port]/path/to/fusescope-cli (OpenSSH with your keys and config), or empty for this machine&apos;s.</source>
        <translation>引擎运行的位置：ssh://user@host[:port]/path/to/fusescope-cli（使用 OpenSSH 及您的密钥和配置），留空则使用本机的引擎。</translation>
    </message>
</context>
<context>
    <name>GraphView</name>
    <message>
        <source>saved %1</source>
        <translation>为反向保存 %1</translation>
    </message>
</context>
<context>
    <name>QApplication</name>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <source>No compile on show: run the script (Ctrl+R), or pick a compile in Compiles.</source>
        <translation>没有显示中的编译：运行脚本（Ctrl+R），或在“编译”中选择一次编译。</translation>
    </message>
    <message>
        <source>Backend %1 makes no loop IR, fusion or generated code: pick inductor in the Backend picker (or write torch.compile(backend=&quot;inductor&quot;)) and run again.</source>
        <translation>后端 %1 不生成循环 IR、融合或生成代码：请在“后端”中选择 inductor（或写 torch.compile(backend=&quot;inductor&quot;)）后重新运行。</translation>
    </message>
    <message>
        <source>PyTorch&apos;s TORCH_TRACE log has no loop IR: inductor writes its IR before and after fusion only under TORCH_COMPILE_DEBUG=1 (ir_pre_fusion.txt, ir_post_fusion.txt). The graphs it logged are in the Graph pane&apos;s tabs, its output code in Generated Code.</source>
        <translation>PyTorch 的 TORCH_TRACE 日志没有循环 IR：inductor 只在 TORCH_COMPILE_DEBUG=1 时写出融合前后的 IR（ir_pre_fusion.txt、ir_post_fusion.txt）。它记录的图在“计算图”窗格的各个标签页中，输出代码在“生成的代码”中。</translation>
    </message>
</context>
<context>
    <name>RecompileFixes</name>
    <message>
        <source>$1 is a parameter (or buffer), whose sizes stay static: a module whose $1 has another size ($3 to $4 at dim $2) compiles again; to share one dynamic graph, set `torch._dynamo.config.force_parameter_static_shapes = False` before the first call</source>
        <translation>$1 是参数（或缓冲区），其大小保持静态：$1 大小不同的模块（第 $2 维由 $3 变为 $4）会再次编译；要共用一个动态图，请在第一次调用前设置 `torch._dynamo.config.force_parameter_static_shapes = False`</translation>
    </message>
    <message>
        <source>the size of $1&apos;s dim $2 changed ($3 to $4): mark it dynamic before the first call, `torch._dynamo.mark_dynamic($1, $2)`, or compile with `dynamic=True`; without either, this recompile makes the dim dynamic and later sizes reuse it</source>
        <translation>$1 的第 $2 维大小变了（$3 变为 $4）：在第一次调用前把它标为动态，`torch._dynamo.mark_dynamic($1, $2)`，或用 `dynamic=True` 编译；两者都不做时，这次重新编译会把该维变为动态，之后的大小沿用它</translation>
    </message>
    <message>
        <source>$1&apos;s dtype changed ($2 to $3): each dtype compiles once; convert $1 to one dtype before the call</source>
        <translation>$1 的 dtype 变了（$2 变为 $3）：每种 dtype 各编译一次；调用前把 $1 转换为同一种 dtype</translation>
    </message>
    <message>
        <source>$1&apos;s number of dims changed ($2 to $3): each rank compiles once; reshape $1 to one rank before the call</source>
        <translation>$1 的维数变了（$2 变为 $3）：每种维数各编译一次；调用前把 $1 变形为同一维数</translation>
    </message>
    <message>
        <source>$1&apos;s layout changed (a transposed or sliced view): pass `$1.contiguous()`</source>
        <translation>$1 的内存布局变了（转置或切片得到的视图）：请传入 `$1.contiguous()`</translation>
    </message>
    <message>
        <source>$1.requires_grad changed: each setting compiles once; call it with the same requires_grad</source>
        <translation>$1.requires_grad 变了：每种设置各编译一次；调用时请保持相同的 requires_grad</translation>
    </message>
    <message>
        <source>$1 was passed as another type ($3 where the compile had $2): pass the same type on every call</source>
        <translation>$1 传入了另一种类型（编译时为 $2，现在为 $3）：每次调用请传入同一种类型</translation>
    </message>
    <message>
        <source>$1 was passed as another type than the compile&apos;s $2: pass the same type on every call</source>
        <translation>$1 传入的类型与编译时的 $2 不同：每次调用请传入同一种类型</translation>
    </message>
    <message>
        <source>the length of $1 changed: keep it fixed, or pass its items as one tensor (`torch.stack`)</source>
        <translation>$1 的长度变了：保持长度不变，或把其中各项合成一个张量传入（`torch.stack`）</translation>
    </message>
    <message>
        <source>$1 is a Python number the graph held as the constant $2: this recompile makes it dynamic (a graph input guarded by its type), so later values reuse the recompiled graph; to skip this recompile too, compile with `dynamic=True`</source>
        <translation>$1 是图中作为常量 $2 保存的 Python 数：这次重新编译会把它变为动态（一个由类型守卫的图输入），之后的值沿用重新编译的图；要连这次重新编译也省去，请用 `dynamic=True` 编译</translation>
    </message>
    <message>
        <source>$1 is a Python value the graph holds as the constant $2: another value recompiles; if it changes from call to call, pass it as a tensor (`torch.tensor(...)`)</source>
        <translation>$1 是图中作为常量 $2 保存的 Python 值：换一个值就会重新编译；如果它每次调用都变，请作为张量传入（`torch.tensor(...)`）</translation>
    </message>
    <message>
        <source>it was called under another grad mode than the compile&apos;s: call it under the same `torch.no_grad()` setting, or expect one compile for each</source>
        <translation>调用时的梯度模式与编译时不同：请在相同的 `torch.no_grad()` 设置下调用，否则每种设置各编译一次</translation>
    </message>
    <message>
        <source>the function is compiled by two backends: compile it once and reuse the compiled function</source>
        <translation>该函数被两个后端编译：只编译一次，并重用编译好的函数</translation>
    </message>
</context>
<context>
    <name>ScriptNotes</name>
    <message>
        <source>graph break (%1): %2</source>
        <translation>图中断（%1）：%2</translation>
    </message>
    <message>
        <source>recompiled as %1 because of guard failures:
%2</source>
        <translation>因以下守卫检查失败而重新编译为 %1：
%2</translation>
    </message>
    <message>
        <source>recompiled as %1 by the call on line %2, because of guard failures:
%3</source>
        <translation>因第 %2 行的调用而重新编译为 %1，原因是以下守卫检查失败：
%3</translation>
    </message>
    <message>
        <source>this call recompiled %1 as %2 (defined on line %3)</source>
        <translation>此调用使 %1 重新编译为 %2（定义于第 %3 行）</translation>
    </message>
</context>
<context>
    <name>ViewMenu</name>
    <message>
        <source>&amp;Reset Layout</source>
        <translation>重置布局(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>The language changes at the next start.</source>
        <translation>语言将在下次启动时更改。</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::CodePane</name>
    <message>
        <source>C++</source>
        <translation>C++</translation>
    </message>
    <message>
        <source>LLVM IR</source>
        <translation>LLVM IR</translation>
    </message>
    <message>
        <source>Assembly</source>
        <translation>汇编</translation>
    </message>
    <message>
        <source>PTX</source>
        <translation>PTX</translation>
    </message>
    <message>
        <source>SASS</source>
        <translation>SASS</translation>
    </message>
    <message>
        <source>CUDA</source>
        <translation>CUDA</translation>
    </message>
    <message>
        <source>// No SASS: the CUDA toolkit&apos;s nvdisasm was not found.</source>
        <translation>// 没有 SASS：未找到 CUDA 工具包的 nvdisasm。</translation>
    </message>
    <message>
        <source>Output code</source>
        <translation>输出代码</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::CompareView</name>
    <message>
        <source>Graph code</source>
        <translation>图代码</translation>
    </message>
    <message>
        <source>Guards</source>
        <translation>守卫</translation>
    </message>
    <message>
        <source>IR before fusion</source>
        <translation>融合前 IR</translation>
    </message>
    <message>
        <source>IR after fusion</source>
        <translation>融合后 IR</translation>
    </message>
    <message>
        <source>C++</source>
        <translation>C++</translation>
    </message>
    <message>
        <source>The compile to compare from</source>
        <translation>作为比较基准的编译</translation>
    </message>
    <message>
        <source>The compile to compare with it</source>
        <translation>与之比较的编译</translation>
    </message>
    <message>
        <source>Before:</source>
        <translation>之前：</translation>
    </message>
    <message>
        <source>After:</source>
        <translation>之后：</translation>
    </message>
    <message>
        <source>No compiles to compare yet</source>
        <translation>还没有可比较的编译</translation>
    </message>
    <message>
        <source>%1: none in %2 or %3</source>
        <translation>%1：%2 和 %3 中都没有</translation>
    </message>
    <message>
        <source>Lines added: %1, removed: %2</source>
        <translation>新增行：%1，删除行：%2</translation>
    </message>
    <message>
        <source>Only %1 so far: a second compile (a recompile, another function) is needed to compare</source>
        <translation>目前只有 %1：需要第二个编译（重新编译或另一个函数）才能比较</translation>
    </message>
    <message>
        <source>Both sides are %1: pick another compile on one of them</source>
        <translation>两侧都是 %1：请在其中一侧选择另一个编译</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::CompilesModel</name>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>fell back to eager</source>
        <translation>回退到 eager</translation>
    </message>
    <message>
        <source>graph break</source>
        <translation>图中断</translation>
    </message>
    <message>
        <source>recompiled</source>
        <translation>已重编译</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>正常</translation>
    </message>
    <message>
        <source>Function / compile</source>
        <translation>函数 / 编译</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Graphs</source>
        <translation>图数</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <source>Hits</source>
        <translation>命中</translation>
    </message>
    <message>
        <source>Compile time in milliseconds: capture, lowering, scheduling, code generation and the C++ compiler</source>
        <translation>编译耗时（毫秒）：捕获、降级、调度、代码生成和 C++ 编译器</translation>
    </message>
    <message>
        <source>ms</source>
        <translation>毫秒</translation>
    </message>
    <message>
        <source>compiling</source>
        <translation>编译中</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::CompilesPane</name>
    <message>
        <source>Functions</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Call stacks</source>
        <translation>调用栈</translation>
    </message>
    <message>
        <source>Each compile under the calls that led to it, outermost first</source>
        <translation>每次编译挂在引出它的调用之下，最外层在前</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::EngineAddress</name>
    <message>
        <source>&apos;%1&apos; is neither a path nor an ssh:// address (ssh://user@host[:port]/path/to/fusescope-cli)</source>
        <translation>&apos;%1&apos; 既不是路径也不是 ssh:// 地址（ssh://user@host[:port]/path/to/fusescope-cli）</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an engine address: ssh://user@host[:port]/path/to/fusescope-cli (no password: a key or an agent lets ssh in)</source>
        <translation>&apos;%1&apos; 不是引擎地址：ssh://user@host[:port]/path/to/fusescope-cli（不含密码：由密钥或 agent 让 ssh 登录）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::EngineClient</name>
    <message>
        <source>running %1</source>
        <translation>正在运行 %1</translation>
    </message>
    <message>
        <source>the engine crashed: %1</source>
        <translation>引擎崩溃：%1</translation>
    </message>
    <message>
        <source>killed by signal %1</source>
        <translation>被信号 %1 终止</translation>
    </message>
    <message>
        <source>killed by signal %1 (SIG%2: %3)</source>
        <translation>被信号 %1 终止（SIG%2：%3）</translation>
    </message>
    <message>
        <source>the engine exited with status %1</source>
        <translation>引擎已退出，状态码 %1</translation>
    </message>
    <message>
        <source>the engine exited: a GPU kernel faulted and the GPU context is lost</source>
        <translation>引擎已退出：GPU 内核出错，GPU 上下文已丢失</translation>
    </message>
    <message>
        <source>minifying %1</source>
        <translation>正在最小化 %1</translation>
    </message>
    <message>
        <source>Stopped: %1</source>
        <translation>已停止：%1</translation>
    </message>
    <message>
        <source> (the engine may take %1 MiB, its memory limit; what the run produced before is kept)</source>
        <translation>（引擎最多可用 %1 MiB，即其内存上限；运行此前产生的内容均已保留）</translation>
    </message>
    <message>
        <source>the engine at %1 speaks protocol %2, this workbench %3: install this Fusescope (%4) there</source>
        <translation>%1 上的引擎使用协议 %2，本工作台使用 %3：请在那里安装此版本的 Fusescope（%4）</translation>
    </message>
    <message>
        <source>The engine at %1 is Fusescope %2, this workbench %3: what it reports may differ from this build&apos;s</source>
        <translation>%1 上的引擎是 Fusescope %2，本工作台是 %3：它报告的内容可能与本版本不同</translation>
    </message>
    <message numerus="yes">
        <source>%n file(s) or folder(s) beside %1 were not sent to the engine (past 2000 files or 32 MiB, or not UTF-8)</source>
        <translation>
            <numerusform>%1 旁有 %n 个文件或文件夹未发送给引擎（超过 2000 个文件或 32 MiB，或不是 UTF-8）</numerusform>
        </translation>
    </message>
    <message>
        <source>the engine sent back files in a form this workbench does not read</source>
        <translation>引擎发回的文件格式本工作台无法读取</translation>
    </message>
    <message>
        <source>cannot write %1, which the engine sent back: %2</source>
        <translation>无法写入引擎发回的 %1：%2</translation>
    </message>
    <message>
        <source>cannot reach the engine at %1</source>
        <translation>无法连接 %1 上的引擎</translation>
    </message>
    <message>
        <source>the connection to %1 was lost</source>
        <translation>与 %1 的连接已断开</translation>
    </message>
    <message>
        <source>%1 (ssh: %2)</source>
        <translation>%1（ssh：%2）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::FindBar</name>
    <message>
        <source>Find in the script (Enter: next, Shift+Enter: previous)</source>
        <translation>在脚本中查找（回车：下一个，Shift+回车：上一个）</translation>
    </message>
    <message>
        <source>Replace with (Enter: replace and find the next)</source>
        <translation>替换为（回车：替换并查找下一个）</translation>
    </message>
    <message>
        <source>Match case</source>
        <translation>区分大小写</translation>
    </message>
    <message>
        <source>Whole words</source>
        <translation>全字匹配</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <source>Replace All</source>
        <translation>全部替换</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭 (Esc)</translation>
    </message>
    <message>
        <source>1 replaced</source>
        <translation>已替换 1 处</translation>
    </message>
    <message>
        <source>%1 replaced</source>
        <translation>已替换 %1 处</translation>
    </message>
    <message>
        <source>No matches</source>
        <translation>无匹配</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
    <message>
        <source>A module&apos;s tab is read-only: the text it ran with</source>
        <translation>模块的标签页是只读的：即它运行时的文本</translation>
    </message>
    <message>
        <source>Previous match (Shift+Enter, Shift+F3)</source>
        <translation>上一个匹配 (Shift+回车, Shift+F3)</translation>
    </message>
    <message>
        <source>Next match (Enter, F3)</source>
        <translation>下一个匹配 (回车, F3)</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::FusionPane</name>
    <message>
        <source>%1 and %2 are one kernel (%3): %4</source>
        <translation>%1 和 %2 在同一个内核中（%3）：%4</translation>
    </message>
    <message>
        <source>%1 and %2 are separate kernels: %3</source>
        <translation>%1 和 %2 是不同的内核：%3</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::FusionStepper</name>
    <message>
        <source>◀ Back</source>
        <translation>◀ 后退</translation>
    </message>
    <message>
        <source>Undo the last fusion step (Alt+Left)</source>
        <translation>撤销上一步融合（Alt+左方向键）</translation>
    </message>
    <message>
        <source>Forward ▶</source>
        <translation>前进 ▶</translation>
    </message>
    <message>
        <source>Apply the next fusion step (Alt+Right)</source>
        <translation>执行下一步融合（Alt+右方向键）</translation>
    </message>
    <message>
        <source>Why not fused?</source>
        <translation>为何未融合？</translation>
    </message>
    <message>
        <source>Asking the engine about %1 and %2...</source>
        <translation>正在向引擎询问 %1 和 %2……</translation>
    </message>
    <message>
        <source>step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message numerus="yes">
        <source>Before fusion: %n scheduler node(s).</source>
        <translation>
            <numerusform>融合之前：%n 个调度节点。</numerusform>
        </translation>
    </message>
    <message>
        <source>fused into %1</source>
        <translation>融合为 %1</translation>
    </message>
    <message>
        <source>not fused</source>
        <translation>未融合</translation>
    </message>
    <message>
        <source>Step %1: %2 + %3 (%4, score %5): %6. %7</source>
        <translation>第 %1 步：%2 + %3（%4，得分 %5）：%6。%7</translation>
    </message>
    <message>
        <source>Ask the engine why the pair is or is not one kernel: click a node in the diagram and Ctrl+click a second, or pick a decision in the table</source>
        <translation>询问引擎这对节点为何（不）在同一个内核中：在图中点击一个节点再按住 Ctrl 点击第二个，或在表格中选择一个决策</translation>
    </message>
    <message>
        <source>No fusion decisions in this graph.</source>
        <translation>此图没有融合决策。</translation>
    </message>
    <message>
        <source>Pair: %1 + %2</source>
        <translation>节点对：%1 + %2</translation>
    </message>
    <message>
        <source>Pair: %1 + ? (Ctrl+click a second node)</source>
        <translation>节点对：%1 + ?（按住 Ctrl 点击第二个节点）</translation>
    </message>
    <message>
        <source>Pair: none (Ctrl+click two nodes)</source>
        <translation>节点对：无（按住 Ctrl 点击两个节点）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::FusionStepsModel</name>
    <message>
        <source>fused: %1</source>
        <translation>已融合：%1</translation>
    </message>
    <message>
        <source>not fused</source>
        <translation>未融合</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Pair</source>
        <translation>节点对</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>vertical</source>
        <translation>纵向</translation>
    </message>
    <message>
        <source>horizontal</source>
        <translation>横向</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GraphBreaksModel</name>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Source line</source>
        <translation>源代码行</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>次数</translation>
    </message>
    <message>
        <source>1 op</source>
        <translation>1 个算子</translation>
    </message>
    <message>
        <source>%1 ops</source>
        <translation>%1 个算子</translation>
    </message>
    <message>
        <source>%1 splits %2 (%3) from %4 (%5)</source>
        <translation>%1 将 %2（%3）与 %4（%5）分开</translation>
    </message>
    <message>
        <source>between them: %1 ms over %2 calls; compiling them: %3 s + %4 s</source>
        <translation>二者之间：%2 次调用共 %1 ms；编译它们：%3 s + %4 s</translation>
    </message>
    <message>
        <source>kernels: %1 + %2 apart; as one graph not known (inductor can&apos;t lower one of them)</source>
        <translation>内核：分开时 %1 + %2；合为一张图时未知（inductor 无法降低其中之一）</translation>
    </message>
    <message>
        <source>kernels: %1 + %2 apart, %3 as one graph: %4 lost</source>
        <translation>内核：分开时 %1 + %2，合为一张图时 %3：损失 %4</translation>
    </message>
    <message>
        <source>1 fusion</source>
        <translation>1 次融合</translation>
    </message>
    <message>
        <source>%1 fusions</source>
        <translation>%1 次融合</translation>
    </message>
    <message>
        <source>Between graphs (ms)</source>
        <translation>图之间（ms）</translation>
    </message>
    <message>
        <source>Fusions lost</source>
        <translation>损失的融合</translation>
    </message>
    <message>
        <source>Cost rank</source>
        <translation>代价排名</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GraphBreaksPane</name>
    <message>
        <source>Select a graph break to see what PyTorch says of it.</source>
        <translation>选择一个图中断，查看 PyTorch 对它的说明。</translation>
    </message>
    <message>
        <source>Hints:</source>
        <translation>提示：</translation>
    </message>
    <message>
        <source>Developer debug context:</source>
        <translation>开发者调试上下文：</translation>
    </message>
    <message>
        <source>More about this graph break:</source>
        <translation>关于此图中断的更多信息：</translation>
    </message>
    <message>
        <source>What it cost on this run:</source>
        <translation>本次运行中的代价：</translation>
    </message>
    <message>
        <source>No run yet: graph breaks show here as the run reports them.</source>
        <translation>尚未运行：运行报告的图中断会显示在这里。</translation>
    </message>
    <message>
        <source>No graph breaks in this run.</source>
        <translation>本次运行没有图中断。</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GraphMinimap</name>
    <message>
        <source>The whole graph: click or drag to move the view</source>
        <translation>整张图：点击或拖动以移动视图</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GraphPane</name>
    <message>
        <source>Captured</source>
        <translation>捕获的图</translation>
    </message>
    <message>
        <source>After fusion</source>
        <translation>融合之后</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Forward</source>
        <translation>前向图</translation>
    </message>
    <message>
        <source>Backward</source>
        <translation>反向图</translation>
    </message>
    <message>
        <source>Joint</source>
        <translation>联合图</translation>
    </message>
    <message>
        <source>Group automatically</source>
        <translation>自动分组</translation>
    </message>
    <message>
        <source>Group by module</source>
        <translation>按模块分组</translation>
    </message>
    <message>
        <source>Group by source line</source>
        <translation>按源代码行分组</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>第 %1 个，共 %2 个</translation>
    </message>
    <message>
        <source>1 match</source>
        <translation>1 个匹配</translation>
    </message>
    <message>
        <source>%1 matches</source>
        <translation>%1 个匹配</translation>
    </message>
    <message>
        <source>Find a node by name or target (Ctrl+F)</source>
        <translation>按名称或目标查找节点 (Ctrl+F)</translation>
    </message>
    <message>
        <source>Typing shows the first match; Enter chooses it, as a click would; Enter again goes to the next</source>
        <translation>输入时显示第一个匹配；回车选中它，如同点击；再按回车转到下一个</translation>
    </message>
    <message>
        <source>Pre-grad</source>
        <translation>求导前图</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理图</translation>
    </message>
    <message>
        <source>Post-grad</source>
        <translation>求导后图</translation>
    </message>
    <message>
        <source>PyTorch&apos;s TORCH_TRACE log does not list inductor&apos;s scheduler nodes, so there is nothing to draw after fusion: its fused kernels are in Generated Code (Output code), the graph they were made from in Post-grad.</source>
        <translation>PyTorch 的 TORCH_TRACE 日志不列出 inductor 的调度节点，因此融合后没有可画的内容：融合后的内核在“生成的代码”（输出代码）中，生成它们的图在“求导后图”中。</translation>
    </message>
    <message>
        <source>No grouping</source>
        <translation>不分组</translation>
    </message>
    <message>
        <source>Collapse the nodes an nn.Module ran, or those one script line made, into one box (automatically: by module where the graph has modules, else by source line once it is big), or draw every node</source>
        <translation>把一个 nn.Module 运行的节点，或一行脚本产生的节点，折叠成一个框（自动：图中有模块时按模块，否则图较大时按源代码行），或画出每个节点</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GraphView</name>
    <message>
        <source>%1 (kernel %2)</source>
        <translation>%1（内核 %2）</translation>
    </message>
    <message>
        <source>There is no graph to export.</source>
        <translation>没有可导出的图。</translation>
    </message>
    <message>
        <source>Fusescope graph</source>
        <translation>Fusescope 图</translation>
    </message>
    <message>
        <source>Cannot write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>%1
%2 · %n op(s)</source>
        <translation>
            <numerusform>%1
%2 · %n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: double-click (or +) to expand</source>
        <translation>%1：双击（或按 +）展开</translation>
    </message>
    <message>
        <source>%1: double-click the title (or -) to collapse</source>
        <translation>%1：双击标题（或按 -）折叠</translation>
    </message>
    <message numerus="yes">
        <source>%1
%n op(s)</source>
        <translation>
            <numerusform>%1
%n 个算子</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GuardsModel</name>
    <message>
        <source>a later call failed it</source>
        <translation>之后的调用未通过此守卫</translation>
    </message>
    <message>
        <source>%1: expected %2, actual %3</source>
        <translation>%1：期望 %2，实际 %3</translation>
    </message>
    <message>
        <source>failed (%1×)</source>
        <translation>失败（%1 次）</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>通过</translation>
    </message>
    <message>
        <source>Guard</source>
        <translation>守卫</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Mismatch</source>
        <translation>不匹配项</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>期望值</translation>
    </message>
    <message>
        <source>Actual</source>
        <translation>实际值</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::GuardsView</name>
    <message>
        <source>Apply Fix and Run</source>
        <translation>应用修复并运行</translation>
    </message>
    <message>
        <source>Select a recompile the doctor knows an edit for</source>
        <translation>选择一个诊断知道如何修改的重新编译</translation>
    </message>
    <message>
        <source>No edit is known for this recompile: see How to avoid it</source>
        <translation>此重新编译没有已知的修改：请参阅“如何避免”</translation>
    </message>
    <message>
        <source>Insert %1 before line %2 of %3, then run again</source>
        <translation>在 %3 的第 %2 行之前插入 %1，然后重新运行</translation>
    </message>
    <message>
        <source>No run yet: a compile&apos;s guards show here.</source>
        <translation>尚未运行：编译的守卫会显示在这里。</translation>
    </message>
    <message>
        <source>Compile %1 has no guards.</source>
        <translation>编译 %1 没有守卫。</translation>
    </message>
    <message>
        <source>Select a compile to see its guards.</source>
        <translation>选择一个编译以查看其守卫。</translation>
    </message>
    <message>
        <source>No compiles in this run.</source>
        <translation>本次运行没有编译。</translation>
    </message>
    <message>
        <source>No run yet: recompiles and the guards that failed show here.</source>
        <translation>尚未运行：重新编译及失败的守卫会显示在这里。</translation>
    </message>
    <message>
        <source>No recompiles in this run.</source>
        <translation>本次运行没有重新编译。</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::IrPane</name>
    <message>
        <source>%1 is a buffer: %2</source>
        <translation>%1 是缓冲区：%2</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::LogsModel</name>
    <message>
        <source>DEBUG</source>
        <translation>调试</translation>
    </message>
    <message>
        <source>WARNING</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>ERROR</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>INFO</source>
        <translation>信息</translation>
    </message>
    <message>
        <source>Level</source>
        <translation>级别</translation>
    </message>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>%1 … (+1 line)</source>
        <translation>%1 …（另有 1 行）</translation>
    </message>
    <message>
        <source>%1 … (+%2 lines)</source>
        <translation>%1 …（另有 %2 行）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::LogsPane</name>
    <message>
        <source>Search log messages</source>
        <translation>搜索日志消息</translation>
    </message>
    <message>
        <source>%1 and above</source>
        <translation>%1 及以上</translation>
    </message>
    <message>
        <source>All compiles</source>
        <translation>全部编译</translation>
    </message>
    <message>
        <source>Selected compile</source>
        <translation>所选编译</translation>
    </message>
    <message>
        <source>All artifacts</source>
        <translation>全部日志类别</translation>
    </message>
    <message>
        <source>Select a record to read it whole</source>
        <translation>选择一条记录以查看全文</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::MainWindow</name>
    <message>
        <source>Fusescope</source>
        <translation>Fusescope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Restart Engine</source>
        <translation>重启引擎</translation>
    </message>
    <message>
        <source>Engine restarted</source>
        <translation>引擎已重启</translation>
    </message>
    <message>
        <source>Open Script</source>
        <translation>打开脚本</translation>
    </message>
    <message>
        <source>Cannot open %1: %2</source>
        <translation>无法打开 %1：%2</translation>
    </message>
    <message>
        <source>Fusescope - %1</source>
        <translation>Fusescope - %1</translation>
    </message>
    <message>
        <source>Open Bundle</source>
        <translation>打开追踪包</translation>
    </message>
    <message>
        <source>%1 is not a usable bundle:
%2</source>
        <translation>%1 不是可用的追踪包：
%2</translation>
    </message>
    <message>
        <source>Opened bundle %1: %2 events</source>
        <translation>已打开追踪包 %1：%2 个事件</translation>
    </message>
    <message>
        <source>Running %1...</source>
        <translation>正在运行 %1...</translation>
    </message>
    <message>
        <source>Finished: %1 events</source>
        <translation>已完成：%1 个事件</translation>
    </message>
    <message>
        <source>%1 while %2</source>
        <translation>%1（当时正在%2）</translation>
    </message>
    <message>
        <source>%1. Everything received so far is kept; Restart Engine starts a new one.</source>
        <translation>%1。已收到的内容全部保留；点击“重启引擎”可启动新引擎。</translation>
    </message>
    <message>
        <source>Selected %1</source>
        <translation>已选择 %1</translation>
    </message>
    <message>
        <source>Selected %1 (kernel %2)</source>
        <translation>已选择 %1（内核 %2）</translation>
    </message>
    <message>
        <source>Export Graph Image</source>
        <translation>导出图像</translation>
    </message>
    <message>
        <source>Export Bundle</source>
        <translation>导出追踪包</translation>
    </message>
    <message>
        <source>There is no bundle yet: run the script first (a run that is still going, or whose engine died, has none).</source>
        <translation>还没有追踪包：请先运行脚本（仍在运行或引擎已退出的运行没有追踪包）。</translation>
    </message>
    <message>
        <source>Exported the bundle to %1</source>
        <translation>追踪包已导出到 %1</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Minify</source>
        <translation>最小化</translation>
    </message>
    <message>
        <source>Shrink the compiled graph that failed to the smallest graph that still fails, and write it as a repro script (Ctrl+M)</source>
        <translation>将失败的编译图缩减为仍会失败的最小图，并写成复现脚本（Ctrl+M）</translation>
    </message>
    <message>
        <source>Open PyTorch Trace</source>
        <translation>打开 PyTorch 追踪</translation>
    </message>
    <message>
        <source>Cannot open %1:
%2</source>
        <translation>无法打开 %1:
%2</translation>
    </message>
    <message>
        <source># A TORCH_TRACE log of PyTorch %1: %2
# Its program, %3, is not on this machine.
</source>
        <translation># PyTorch %1 的 TORCH_TRACE 日志:%2
# 它的程序 %3 不在本机上。
</translation>
    </message>
    <message>
        <source>Opened PyTorch trace %1: %2 compiles, %3 events</source>
        <translation>已打开 PyTorch 追踪 %1:%2 次编译,%3 个事件</translation>
    </message>
    <message>
        <source>; %1 warnings, the first: %2</source>
        <translation>;%1 条警告,第一条:%2</translation>
    </message>
    <message>
        <source>Cannot open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Opening PyTorch trace %1...</source>
        <translation>正在打开 PyTorch 追踪 %1...</translation>
    </message>
    <message>
        <source>Open Profiler Trace</source>
        <translation>打开性能分析追踪</translation>
    </message>
    <message>
        <source>no execution trace beside it</source>
        <translation>旁边没有执行追踪</translation>
    </message>
    <message>
        <source>its execution trace %1 describes %2 of them</source>
        <translation>其执行追踪 %1 描述了其中 %2 个</translation>
    </message>
    <message>
        <source># A profiler trace: %1
# %2 spans; %3.
</source>
        <translation># 性能分析追踪:%1
# %2 个区间;%3。
</translation>
    </message>
    <message>
        <source>Opened profiler trace %1: %2 spans</source>
        <translation>已打开性能分析追踪 %1:%2 个区间</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Preferences...</source>
        <translation>首选项(&amp;P)...</translation>
    </message>
    <message>
        <source>PyTorch&apos;s side: %1</source>
        <translation>PyTorch 一侧：%1</translation>
    </message>
    <message>
        <source>PyTorch&apos;s side failed: %1</source>
        <translation>PyTorch 一侧失败：%1</translation>
    </message>
    <message>
        <source>Opening profiler trace %1...</source>
        <translation>正在打开性能分析跟踪 %1...</translation>
    </message>
    <message>
        <source>The saved window layout did not fit this screen: the default layout is back.</source>
        <translation>保存的窗口布局不适合此屏幕：已恢复默认布局。</translation>
    </message>
    <message>
        <source>Opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <source>the engine was restarted</source>
        <translation>引擎已重启</translation>
    </message>
    <message>
        <source>Exported the bundle, with PyTorch&apos;s side, to %1</source>
        <translation>已将包（含 PyTorch 一侧）导出到 %1</translation>
    </message>
    <message>
        <source>The bundle keeps no PyTorch side: its run was made without Run Under PyTorch Too</source>
        <translation>此包不含 PyTorch 一侧：其运行未开启“同时在 PyTorch 下运行”</translation>
    </message>
    <message>
        <source>%1 is not among the files of this run</source>
        <translation>%1 不在本次运行的文件之中</translation>
    </message>
    <message>
        <source>The fix edits %1, which is not the script in the editor</source>
        <translation>该修复修改的是 %1，而不是编辑器中的脚本</translation>
    </message>
    <message>
        <source>Applied the fix at line %1: %2</source>
        <translation>已在第 %1 行应用修复：%2</translation>
    </message>
    <message>
        <source>Run the script (F5, Ctrl+R)</source>
        <translation>运行脚本 (F5, Ctrl+R)</translation>
    </message>
    <message>
        <source>Export Trace for Perfetto</source>
        <translation>导出追踪供 Perfetto 使用</translation>
    </message>
    <message>
        <source>There are no spans yet: run the script (every run is traced), or open a TORCH_TRACE folder (its compile timeline) or a profiler trace.</source>
        <translation>还没有任何区间：请运行脚本（每次运行都会被追踪），或打开一个 TORCH_TRACE 文件夹（其编译时间线）或一个性能分析追踪。</translation>
    </message>
    <message numerus="yes">
        <source>Exported %n span(s) to %1: open it in ui.perfetto.dev or chrome://tracing</source>
        <translation>
            <numerusform>已将 %n 个区间导出到 %1：可在 ui.perfetto.dev 或 chrome://tracing 中打开</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (bundle)</source>
        <translation>%1（追踪包）</translation>
    </message>
    <message>
        <source>%1 (PyTorch trace)</source>
        <translation>%1（PyTorch 追踪）</translation>
    </message>
    <message>
        <source>%1 (profiler trace)</source>
        <translation>%1（性能分析追踪）</translation>
    </message>
    <message>
        <source>%1 (PyTorch trace, rank %2 of %3)</source>
        <translation>%1（PyTorch 跟踪，第 %2 个 rank，共 %3 个）</translation>
    </message>
    <message>
        <source>Opened rank %1 of %2 of PyTorch trace %3: %4 compiles, %5 events; %6</source>
        <translation>已打开 PyTorch 跟踪 %3 的 rank %1（共 %2 个）：%4 次编译，%5 个事件；%6</translation>
    </message>
    <message>
        <source>the ranks diverge at compile %1 (Ranks pane)</source>
        <translation>各 rank 在编译 %1 处出现分歧（见 Ranks 面板）</translation>
    </message>
    <message>
        <source>the ranks compiled alike</source>
        <translation>各 rank 的编译一致</translation>
    </message>
    <message>
        <source>Show Rank</source>
        <translation>显示 Rank</translation>
    </message>
    <message>
        <source>Cannot read rank %1&apos;s log:
%2</source>
        <translation>无法读取 rank %1 的日志：
%2</translation>
    </message>
    <message>
        <source>Reading rank %1&apos;s log...</source>
        <translation>正在读取 rank %1 的日志...</translation>
    </message>
    <message>
        <source>%1 read on as its program writes it: %2 compiles, %3 events</source>
        <translation>%1 随程序写入持续读取：%2 次编译，%3 个事件</translation>
    </message>
    <message>
        <source>Stopped following: %1</source>
        <translation>已停止跟随：%1</translation>
    </message>
    <message>
        <source>%1 read again as its program wrote it: %2 spans</source>
        <translation>%1 已按程序写入的内容重新读取：%2 个区间</translation>
    </message>
    <message>
        <source>Connect to Engine</source>
        <translation>连接到引擎</translation>
    </message>
    <message>
        <source>The engine runs at %1 (over SSH)</source>
        <translation>引擎运行在 %1（通过 SSH）</translation>
    </message>
    <message>
        <source>The engine runs on this machine</source>
        <translation>引擎运行在本机</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::MinifyController</name>
    <message>
        <source>Minifying: %1</source>
        <translation>最小化中：%1</translation>
    </message>
    <message>
        <source>Minified: went from %1 to %2 nodes</source>
        <translation>最小化完成：从 %1 个节点减少到 %2 个</translation>
    </message>
    <message>
        <source>Minifying the first failing graph of %1...</source>
        <translation>正在最小化 %1 中第一个失败的图...</translation>
    </message>
    <message>
        <source>Minifying %1...</source>
        <translation>正在最小化 %1...</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::MinifyPane</name>
    <message>
        <source>Minify shrinks the first compiled graph that fails (a compile error, a run-time error or, with Check Accuracy, a wrong result) to the smallest graph that still fails.</source>
        <translation>最小化会把第一个失败的编译图（编译错误、运行时错误，或在开启“检查精度”时结果错误）缩减为仍会失败的最小图。</translation>
    </message>
    <message>
        <source>Save repro.py...</source>
        <translation>保存 repro.py...</translation>
    </message>
    <message>
        <source>The repro runs without failing: the failure needs more than this graph.</source>
        <translation>复现脚本运行时没有失败：该失败需要的不只是这个图。</translation>
    </message>
    <message>
        <source>The repro fails the same way: %1</source>
        <translation>复现脚本以相同方式失败：%1</translation>
    </message>
    <message>
        <source>%1 of %2 (compile %3, backend %4): %5 error. Went from %6 to %7 nodes. %8</source>
        <translation>%2 的 %1（编译 %3，后端 %4）：%5 错误。从 %6 个节点减少到 %7 个。%8</translation>
    </message>
    <message>
        <source>Minify failed: %1</source>
        <translation>最小化失败：%1</translation>
    </message>
    <message>
        <source>Save repro.py</source>
        <translation>保存 repro.py</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::ModulesPane</name>
    <message>
        <source>Filter modules by path or class</source>
        <translation>按路径或类名筛选模块</translation>
    </message>
    <message>
        <source>Module</source>
        <translation>模块</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::Pane</name>
    <message>
        <source>This compile has several graphs (a graph break splits the function): pick the one to show in every pane</source>
        <translation>此编译有多个图（图中断把函数分开）：选择要在各个面板中显示的图</translation>
    </message>
    <message>
        <source>Graph:</source>
        <translation>图：</translation>
    </message>
    <message>
        <source>%1 (%2 of %3)</source>
        <translation>%1（第 %2 个，共 %3 个）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <source>python3 on PATH</source>
        <translation>PATH 中的 python3</translation>
    </message>
    <message>
        <source>A Python with torch installed (e.g. a virtual environment&apos;s bin/python); empty: python3 found on PATH</source>
        <translation>装有 torch 的 Python（例如虚拟环境的 bin/python）；留空：使用 PATH 中找到的 python3</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>Python with torch</source>
        <translation>装有 torch 的 Python</translation>
    </message>
    <message>
        <source>Python with torch:</source>
        <translation>装有 torch 的 Python：</translation>
    </message>
    <message>
        <source>Runs the script under real PyTorch for Run Under PyTorch Too, with TORCH_TRACE into a temporary folder.</source>
        <translation>“同时在 PyTorch 下运行”用它在真实 PyTorch 下运行脚本，TORCH_TRACE 写入临时文件夹。</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::RanksPane</name>
    <message>
        <source>The rank whose log every pane shows</source>
        <translation>所有面板显示其日志的 rank</translation>
    </message>
    <message>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <source>Compiles</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Graph breaks</source>
        <translation>图中断</translation>
    </message>
    <message>
        <source>Recompiles</source>
        <translation>重新编译</translation>
    </message>
    <message>
        <source>Cache hits</source>
        <translation>缓存命中</translation>
    </message>
    <message>
        <source>Cache misses</source>
        <translation>缓存未命中</translation>
    </message>
    <message>
        <source>Compile time</source>
        <translation>编译时间</translation>
    </message>
    <message>
        <source>Activate a rank (double-click, Enter) to show its log in every pane</source>
        <translation>激活一个 rank（双击或回车）即可在所有面板中显示其日志</translation>
    </message>
    <message>
        <source>Check across ranks</source>
        <translation>跨 rank 检查</translation>
    </message>
    <message>
        <source>What the ranks have</source>
        <translation>各 rank 的内容</translation>
    </message>
    <message>
        <source>A distributed run&apos;s ranks show here side by side: open the TORCH_TRACE folder torchrun&apos;s processes wrote, with a log per rank (dedicated_log_torch_trace_rank_N_*.log).</source>
        <translation>分布式运行的各 rank 在此并排显示：打开 torchrun 各进程写入的 TORCH_TRACE 文件夹，每个 rank 一个日志（dedicated_log_torch_trace_rank_N_*.log）。</translation>
    </message>
    <message>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <source>&lt;b&gt;The ranks diverge first&lt;/b&gt; at &lt;a href=&quot;source:%1&quot;&gt;%2&lt;/a&gt;: %3.</source>
        <translation>&lt;b&gt;各 rank 最先出现分歧&lt;/b&gt;于 &lt;a href=&quot;source:%1&quot;&gt;%2&lt;/a&gt;：%3。</translation>
    </message>
    <message>
        <source>&lt;a href=&quot;compile:%1:%2&quot;&gt;Show compile %2 on rank %1&lt;/a&gt;</source>
        <translation>&lt;a href=&quot;compile:%1:%2&quot;&gt;在 rank %1 上显示编译 %2&lt;/a&gt;</translation>
    </message>
    <message>
        <source>&lt;b&gt;The ranks compiled alike:&lt;/b&gt; every check is the same on every rank.</source>
        <translation>&lt;b&gt;各 rank 的编译一致：&lt;/b&gt;每项检查在所有 rank 上都相同。</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>differ</source>
        <translation>不同</translation>
    </message>
    <message>
        <source>same on every rank: %1</source>
        <translation>所有 rank 相同：%1</translation>
    </message>
    <message>
        <source>Differs in</source>
        <translation>不同之处</translation>
    </message>
    <message>
        <source>The checks across ranks this rank differs from the first rank in</source>
        <translation>此 rank 与第一个 rank 不同的跨 rank 检查</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::RecompileReasonsModel</name>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <source>Guard failures</source>
        <translation>守卫失败</translation>
    </message>
    <message>
        <source>How to avoid it</source>
        <translation>如何避免</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::RunOptions</name>
    <message>
        <source>Check Accuracy</source>
        <translation>检查精度</translation>
    </message>
    <message>
        <source>Compare every compiled graph&apos;s outputs with eager and log the first element that differs (--check-accuracy)</source>
        <translation>将每个编译图的输出与 eager 结果比较，并记录第一个不同的元素（--check-accuracy）</translation>
    </message>
    <message>
        <source>Run Under PyTorch Too</source>
        <translation>同时在 PyTorch 下运行</translation>
    </message>
    <message>
        <source>Also run the script under real PyTorch (the Python in Edit &gt; Preferences) with TORCH_TRACE, and pair its compiles with ours in the Ours vs PyTorch view</source>
        <translation>同时用真实的 PyTorch（编辑 &gt; 首选项中的 Python）以 TORCH_TRACE 运行脚本，并在“我们 vs PyTorch”视图中把它的编译与我们的配对</translation>
    </message>
    <message>
        <source>Run Options</source>
        <translation>运行选项</translation>
    </message>
    <message>
        <source>Backend:</source>
        <translation>后端：</translation>
    </message>
    <message>
        <source>as the script says</source>
        <translation>按脚本指定</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>cuda (GPU code only)</source>
        <translation>cuda（仅生成 GPU 代码）</translation>
    </message>
    <message>
        <source>cuda (GPU code only): the script&apos;s cuda tensors run on the CPU, and every compiled graph&apos;s CUDA kernels are generated and compiled to PTX</source>
        <translation>cuda（仅生成 GPU 代码）：脚本中的 cuda 张量在 CPU 上运行，每个已编译图的 CUDA 内核仍会生成并编译为 PTX</translation>
    </message>
    <message>
        <source>Logs:</source>
        <translation>日志：</translation>
    </message>
    <message>
        <source>What to log, as TORCH_LOGS: e.g. +dynamo,recompiles,fusion</source>
        <translation>要记录的日志，语法同 TORCH_LOGS：例如 +dynamo,recompiles,fusion</translation>
    </message>
    <message>
        <source>as the script says (ran: %1)</source>
        <translation>按脚本指定（本次：%1）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::RunStatus</name>
    <message>
        <source>capture</source>
        <translation>捕获</translation>
    </message>
    <message>
        <source>decompose</source>
        <translation>分解</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>lower</source>
        <translation>降级</translation>
    </message>
    <message>
        <source>schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <source>codegen</source>
        <translation>代码生成</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the run at its next statement (Esc)</source>
        <translation>在下一条语句处停止运行（Esc）</translation>
    </message>
    <message>
        <source>Running: %1</source>
        <translation>运行中：%1</translation>
    </message>
    <message>
        <source>The file on show is read again as its program writes it</source>
        <translation>显示中的文件会随其程序写入而重新读取</translation>
    </message>
    <message>
        <source>● following %1</source>
        <translation>● 正在跟随 %1</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::ScriptFile</name>
    <message>
        <source>Save Script As</source>
        <translation>脚本另存为</translation>
    </message>
    <message>
        <source>Save Script</source>
        <translation>保存脚本</translation>
    </message>
    <message>
        <source>Scripts (*.py)</source>
        <translation>脚本 (*.py)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Save Changes</source>
        <translation>保存更改</translation>
    </message>
    <message>
        <source>Save the changes to %1 before closing?</source>
        <translation>关闭前保存对 %1 的更改吗？</translation>
    </message>
    <message>
        <source>Restored the unsaved script of the last session</source>
        <translation>已恢复上次会话中未保存的脚本</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::ScriptTabs</name>
    <message>
        <source>%1 (read-only: the text it ran with)</source>
        <translation>%1（只读：运行时的文本）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::StackTrieView</name>
    <message>
        <source>Call site / compile</source>
        <translation>调用位置 / 编译</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TimelineView</name>
    <message>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TorchComparePane</name>
    <message>
        <source>PyTorch&apos;s side failed: %1</source>
        <translation>PyTorch 一侧失败：%1</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TorchCompareView</name>
    <message>
        <source>Compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Graphs</source>
        <translation>图数</translation>
    </message>
    <message>
        <source>Ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <source>Guards</source>
        <translation>守卫</translation>
    </message>
    <message>
        <source>Graph breaks</source>
        <translation>图中断</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Ours | PyTorch&apos;s; tinted where they differ</source>
        <translation>我们的 | PyTorch 的；不同处着色</translation>
    </message>
    <message>
        <source>Graph code</source>
        <translation>图代码</translation>
    </message>
    <message>
        <source>Recompile reasons</source>
        <translation>重编译原因</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Ours</source>
        <translation>我们</translation>
    </message>
    <message>
        <source>PyTorch</source>
        <translation>PyTorch</translation>
    </message>
    <message numerus="yes">
        <source>%n compile(s), %1 with counts that differ. PyTorch&apos;s side: %2</source>
        <translation>
            <numerusform>%n 次编译，其中 %1 次计数不同。PyTorch 一侧：%2</numerusform>
        </translation>
    </message>
    <message>
        <source># %1 has no compile %2</source>
        <translation># %1 没有编译 %2</translation>
    </message>
    <message>
        <source>Our run</source>
        <translation>我们的运行</translation>
    </message>
    <message>
        <source>PyTorch&apos;s run</source>
        <translation>PyTorch 的运行</translation>
    </message>
    <message>
        <source>No PyTorch run yet: turn on Run Under PyTorch Too in the toolbar and run, or File &gt; Open PyTorch Trace Beside</source>
        <translation>还没有 PyTorch 运行：在工具栏打开“同时在 PyTorch 下运行”再运行，或用 文件 &gt; 在旁打开 PyTorch 跟踪</translation>
    </message>
    <message>
        <source># none</source>
        <translation># 无</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TorchSide</name>
    <message>
        <source>Cannot start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>No Python found to run the script under PyTorch: set one with torch in Edit &gt; Preferences, or start with --torch-python PATH.</source>
        <translation>找不到在 PyTorch 下运行脚本的 Python：在 编辑 &gt; 首选项 中设置一个装有 torch 的 Python，或以 --torch-python PATH 启动。</translation>
    </message>
    <message>
        <source>Cannot write the script for PyTorch into %1</source>
        <translation>无法把给 PyTorch 的脚本写入 %1</translation>
    </message>
    <message>
        <source>Running %1 under PyTorch (%2)...</source>
        <translation>正在 PyTorch 下运行 %1（%2）...</translation>
    </message>
    <message>
        <source>%1 has no torch: pick a Python with torch in Edit &gt; Preferences, or start with --torch-python PATH.</source>
        <translation>%1 没有 torch：在 编辑 &gt; 首选项 中选择装有 torch 的 Python，或以 --torch-python PATH 启动。</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>崩溃了</translation>
    </message>
    <message>
        <source>exited with %1</source>
        <translation>以 %1 退出</translation>
    </message>
    <message>
        <source>%1 under PyTorch %2 and wrote no TORCH_TRACE log:
%3</source>
        <translation>%1 在 PyTorch 下%2，未写出 TORCH_TRACE 日志：
%3</translation>
    </message>
    <message>
        <source>a run of %1</source>
        <translation>%1 的一次运行</translation>
    </message>
    <message>
        <source> (it failed: %1)</source>
        <translation>（运行失败：%1）</translation>
    </message>
    <message>
        <source>PyTorch %1, %2</source>
        <translation>PyTorch %1，%2</translation>
    </message>
    <message>
        <source>Reading PyTorch&apos;s log %1...</source>
        <translation>正在读取 PyTorch 的日志 %1...</translation>
    </message>
    <message>
        <source>kept in %1</source>
        <translation>保存在 %1 中</translation>
    </message>
    <message>
        <source>PyTorch&apos;s side, read as it runs: %1 compiles so far</source>
        <translation>PyTorch 一侧（运行中读取）：目前 %1 次编译</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TraceTreeModel</name>
    <message>
        <source>annotation</source>
        <translation>标注</translation>
    </message>
    <message>
        <source>kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>op</source>
        <translation>算子</translation>
    </message>
    <message>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <source>GPU %1</source>
        <translation>GPU %1</translation>
    </message>
    <message numerus="yes">
        <source>%n span(s)</source>
        <translation>
            <numerusform>%n 个区间</numerusform>
        </translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Duration (µs)</source>
        <translation>耗时（µs）</translation>
    </message>
    <message>
        <source>Input shapes</source>
        <translation>输入形状</translation>
    </message>
    <message>
        <source>Compile / kernel file</source>
        <translation>编译 / 内核文件</translation>
    </message>
    <message>
        <source>kernel (warm-up: first call)</source>
        <translation>内核（预热：首次调用）</translation>
    </message>
</context>
<context>
    <name>fusescope::gui::TraceView</name>
    <message>
        <source>No trace yet: runs record one (spans of ops, compiled calls, kernels and compile phases).</source>
        <translation>还没有追踪：运行时会记录（算子、编译后调用、内核和编译阶段的区间）。</translation>
    </message>
    <message numerus="yes">
        <source>%n span(s)</source>
        <translation>
            <numerusform>%n 个区间</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2): %3 µs%4</source>
        <translation>%1（%2）：%3 µs%4</translation>
    </message>
    <message>
        <source>, compile %1</source>
        <translation>，编译 %1</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Debugging workbench for a tensor-graph compiler</source>
        <translation>张量图编译器调试工作台</translation>
    </message>
    <message>
        <source>A script (.py) or trace bundle (.fscope) to open</source>
        <translation>要打开的脚本（.py）或追踪包（.fscope）</translation>
    </message>
    <message>
        <source>Run the opened script at once</source>
        <translation>立即运行打开的脚本</translation>
    </message>
    <message>
        <source>When the run ends, save the window as PNG to &lt;file&gt; and quit</source>
        <translation>运行结束后将窗口保存为 PNG 到 &lt;file&gt; 并退出</translation>
    </message>
    <message>
        <source>User-interface language, e.g. zh_CN or en (default: the system&apos;s)</source>
        <translation>界面语言，例如 zh_CN 或 en（默认：跟随系统）</translation>
    </message>
    <message>
        <source>Compile with this backend (inductor, eager) instead of what the script says</source>
        <translation>使用此后端（inductor、eager）编译，而不是脚本指定的后端</translation>
    </message>
    <message>
        <source>Run cuda tensors on the CPU and generate their CUDA kernels (the Device picker&apos;s cuda (GPU code only))</source>
        <translation>在 CPU 上运行 cuda 张量并生成其 CUDA 内核（即设备选择中的“cuda（仅生成 GPU 代码）”）</translation>
    </message>
    <message>
        <source>The Python with torch that Run Under PyTorch Too uses (default: Edit &gt; Preferences, else python3 on PATH)</source>
        <translation>“同时在 PyTorch 下运行”使用的装有 torch 的 Python（默认：编辑 &gt; 首选项，否则 PATH 中的 python3）</translation>
    </message>
    <message>
        <source>Run the script under real PyTorch too, and pair its compiles with ours (Ours vs PyTorch)</source>
        <translation>同时在真实 PyTorch 下运行脚本，并把它的编译与我们的配对（我们 vs PyTorch）</translation>
    </message>
    <message>
        <source>Open a TORCH_TRACE folder or log as PyTorch&apos;s side of the Ours vs PyTorch view</source>
        <translation>打开 TORCH_TRACE 文件夹或日志，作为“我们 vs PyTorch”视图的 PyTorch 一侧</translation>
    </message>
    <message>
        <source>Bring a view to the front when the run ends: overview, fusion, code, guards, compare, torch-compare, trace, minify, ranks, or a training graph&apos;s forward or backward</source>
        <translation>运行结束时将某个视图置于最前：overview、fusion、code、guards、compare、torch-compare、trace、minify、ranks，或训练图的 forward 或 backward</translation>
    </message>
    <message>
        <source>Run the engine at ssh://user@host[:port]/path/to/fusescope-cli for this session (docs/remote.md)</source>
        <translation>本次会话在 ssh://user@host[:port]/path/to/fusescope-cli 运行引擎（docs/remote.md）</translation>
    </message>
</context>
</TS>
