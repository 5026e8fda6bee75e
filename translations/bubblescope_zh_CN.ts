<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LayerTree</name>
    <message>
        <location filename="../ui/panel_models.cpp" line="198"/>
        <source>Pass / layer / role / kernel</source>
        <translation>前向 / 层 / 功能 / kernel</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="199"/>
        <source>Wall (ms)</source>
        <translation>墙钟时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="200"/>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="201"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="224"/>
        <source>Pass %1 (%2, step %3)</source>
        <translation>前向 %1（%2，step %3）</translation>
    </message>
</context>
<context>
    <name>SampleProfile</name>
    <message>
        <location filename="../ui/sample_profile.cpp" line="16"/>
        <source>This build carries no sample profile.</source>
        <translation>此版本未内置示例 profile。</translation>
    </message>
    <message>
        <location filename="../ui/sample_profile.cpp" line="32"/>
        <source>Cannot write the sample profile to %1.</source>
        <translation>无法将示例 profile 写入 %1。</translation>
    </message>
</context>
<context>
    <name>Timeline</name>
    <message>
        <location filename="../ui/timeline_data.cpp" line="103"/>
        <source>Steps</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="111"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="128"/>
        <source>Device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="129"/>
        <source>union of all streams</source>
        <translation>所有流的并集</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="153"/>
        <source>Stream %1</source>
        <translation>流 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="154"/>
        <source>Stream ?</source>
        <translation>流 ?</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="175"/>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="46"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="47"/>
        <source>HCCL</source>
        <translation>HCCL</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="48"/>
        <source>Overlap Analysis</source>
        <translation>Overlap Analysis（重叠分析）</translation>
    </message>
</context>
<context>
    <name>bs::ui::BubbleTableModel</name>
    <message>
        <location filename="../ui/panel_models.cpp" line="48"/>
        <source> (edge)</source>
        <translation>（采集边界）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="80"/>
        <source>Bubble</source>
        <translation>空泡</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="82"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="84"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="86"/>
        <source>Start (ms)</source>
        <translation>开始 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="88"/>
        <source>Duration (ms)</source>
        <translation>时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="90"/>
        <source>Candidate causes</source>
        <translation>候选原因</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="92"/>
        <source>Host coverage</source>
        <translation>Host 覆盖率</translation>
    </message>
</context>
<context>
    <name>bs::ui::MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="70"/>
        <source>BubbleScope</source>
        <translation>BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="78"/>
        <source>&lt;b&gt;Sample profile&lt;/b&gt; — a generated 8-layer MoE capture with every planted anomaly. Open your own profiling folder with File ▸ Open Folder… (Ctrl+O) or drop it here.</source>
        <translation>&lt;b&gt;示例 profile&lt;/b&gt; —— 生成的 8 层 MoE 采集数据，包含全部预置异常。请通过 文件 ▸ 打开文件夹…（Ctrl+O）打开自己的 profiling 目录，或将目录拖放到此处。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="88"/>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="90"/>
        <source>Rank to analyse</source>
        <translation>要分析的 rank</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="102"/>
        <source>Summary</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="115"/>
        <location filename="../ui/main_window.cpp" line="368"/>
        <source>Bubbles</source>
        <translation>空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="121"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="127"/>
        <source>Filter ops by name…</source>
        <translation>按名称筛选算子…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="142"/>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="147"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="149"/>
        <location filename="../ui/main_window.cpp" line="432"/>
        <source>Health</source>
        <translation>采集健康</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="153"/>
        <source>Text report</source>
        <translation>文本报告</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="160"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="165"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="174"/>
        <location filename="../ui/main_window.cpp" line="289"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="198"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="199"/>
        <source>&amp;Open Folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="200"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="202"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="203"/>
        <source>Anomaly &amp;JSON…</source>
        <translation>异常 &amp;JSON…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="204"/>
        <source>Anomaly &amp;report (Markdown)…</source>
        <translation>异常报告(&amp;R)（Markdown）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="206"/>
        <source>&amp;Architecture report (Markdown)…</source>
        <translation>模型架构报告(&amp;A)（Markdown）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="209"/>
        <source>Export &amp;all to folder…</source>
        <translation>全部导出到文件夹(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="212"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="214"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="215"/>
        <source>&amp;Fit timeline</source>
        <translation>时间线适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="216"/>
        <source>Show &amp;host lanes</source>
        <translation>显示 Host 泳道(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="221"/>
        <source>Show &amp;Overlap Analysis lanes</source>
        <translation>显示 Overlap Analysis 泳道(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="225"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="226"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="235"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="236"/>
        <source>The language changes the next time BubbleScope starts.</source>
        <translation>语言将在下次启动 BubbleScope 时生效。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="239"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="240"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="242"/>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="243"/>
        <source>Timeline: Ctrl+wheel, W/S or +/− zoom; drag, A/D or horizontal wheel pan; F fit; N/P next/previous bubble by size; Shift+drag selects a range for statistics; click a group header to fold it.</source>
        <translation>时间线：Ctrl+滚轮、W/S 或 +/− 缩放；拖动、A/D 或水平滚轮平移；F 适应窗口；N/P 按大小跳到下一个/上一个空泡；Shift+拖动选择区间并统计；点击分组标题折叠。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <source>&amp;About BubbleScope</source>
        <translation>关于 BubbleScope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="248"/>
        <source>About BubbleScope</source>
        <translation>关于 BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="249"/>
        <source>BubbleScope %1 — device-idle bubble analysis for Ascend NPU profiles.</source>
        <translation>BubbleScope %1 —— 昇腾 NPU profiling 数据的设备空闲空泡分析工具。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="268"/>
        <source>Open Profiling Folder</source>
        <translation>打开 profiling 文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="300"/>
        <source>Loading cancelled.</source>
        <translation>已取消加载。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="308"/>
        <source>Nothing loaded.</source>
        <translation>未加载任何数据。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="326"/>
        <source>Sample profile — BubbleScope</source>
        <translation>示例 profile — BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="327"/>
        <source>%1 — BubbleScope</source>
        <translation>%1 — BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="328"/>
        <source>Loaded %1</source>
        <translation>已加载 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="348"/>
        <source>Are there significant bubbles?</source>
        <translation>是否存在显著空泡？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="348"/>
        <source>Which step group holds them?</source>
        <translation>空泡位于哪个 step 组？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="349"/>
        <source>Prelaunch, tail, internal or inter-step?</source>
        <translation>是下发前、尾部、内部还是 step 之间的空闲？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="350"/>
        <source>Is there a host-side risk?</source>
        <translation>是否存在 Host 侧风险？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="350"/>
        <source>Is the evidence enough?</source>
        <translation>证据是否充分？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="351"/>
        <source>Bubble-first summary</source>
        <translation>空泡优先摘要</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="358"/>
        <source>Data errors: %1. They lower the confidence (now %2); see the data-quality findings in the report.</source>
        <translation>数据错误：%1。这些错误降低了置信度（当前为 %2）；详见报告中的数据质量发现。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="366"/>
        <source>Steps (ms)</source>
        <translation>Step 指标 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <location filename="../ui/main_window.cpp" line="393"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <source>Service</source>
        <translation>服务时长</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <source>Underfeed</source>
        <translation>供给不足率</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="368"/>
        <source>Prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="368"/>
        <source>Internal</source>
        <translation>内部空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="368"/>
        <source>Largest</source>
        <translation>最大空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="368"/>
        <source>Tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="393"/>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="391"/>
        <source>Profiler cross-check (%1, µs)</source>
        <translation>与 profiler 结果交叉核对（%1，µs）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="393"/>
        <source>Ours</source>
        <translation>本工具</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="393"/>
        <source>Profiler</source>
        <translation>Profiler</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="404"/>
        <source>mismatch</source>
        <translation>不一致</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="413"/>
        <source>No finding: the collection looks complete.</source>
        <translation>无发现：采集数据看起来完整。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="424"/>
        <source>Effect:</source>
        <translation>影响：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="425"/>
        <source>Fix:</source>
        <translation>修复：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="432"/>
        <source>Health (%1)</source>
        <translation>采集健康（%1）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="433"/>
        <source>Bubbles (%1)</source>
        <translation>空泡（%1）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="442"/>
        <source>Per-step device time (ms)</source>
        <translation>每个 step 的设备时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="444"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="444"/>
        <source>prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="444"/>
        <source>internal bubbles</source>
        <translation>内部空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="444"/>
        <source>tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="470"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="478"/>
        <source>Top ops by total kernel time (ms)</source>
        <translation>总 kernel 时间最高的算子 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="480"/>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="516"/>
        <source>No call stacks collected: the line of code behind this bubble is unknown.</source>
        <translation>未采集调用栈：无法确定此空泡背后的代码行。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="519"/>
        <source>No user code in the call stacks of the %1 host events in this window (%2 carry a stack).</source>
        <translation>此窗口内 %1 个主机事件的调用栈中没有用户代码（%2 个带有调用栈）。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="524"/>
        <source>Your code behind this bubble:</source>
        <translation>此空泡背后的用户代码：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="524"/>
        <source>Line</source>
        <translation>代码行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="524"/>
        <source>Share of window</source>
        <translation>占窗口比例</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="525"/>
        <source>Host time (ms)</source>
        <translation>主机时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="525"/>
        <source>Path to the op</source>
        <translation>到算子的调用路径</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="542"/>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="547"/>
        <source>Side</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="547"/>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="547"/>
        <location filename="../ui/main_window.cpp" line="597"/>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="547"/>
        <source>Duration (µs)</source>
        <translation>时长 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="547"/>
        <source>Wait (µs)</source>
        <translation>等待 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="548"/>
        <location filename="../ui/main_window.cpp" line="598"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="557"/>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="559"/>
        <source>device idle</source>
        <translation>设备空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="561"/>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="566"/>
        <source>Host coverage</source>
        <translation>Host 覆盖率</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="566"/>
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="567"/>
        <source>comm</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="568"/>
        <source>parallelism</source>
        <translation>并行度</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="571"/>
        <source>Host events in the window:</source>
        <translation>窗口内的 Host 事件：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="578"/>
        <source>There is no host trace: causes cannot be attributed.</source>
        <translation>没有 Host trace：无法归因。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="580"/>
        <source>Candidate causes (possible, not a verdict):</source>
        <translation>候选原因（可能原因，并非结论）：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="596"/>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="599"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="600"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="601"/>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="602"/>
        <source>Block dim</source>
        <translation>Block dim</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="603"/>
        <source>Input shapes</source>
        <translation>输入 shape</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="604"/>
        <source>Output shapes</source>
        <translation>输出 shape</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="609"/>
        <source>PMU verdict</source>
        <translation>PMU 判定</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="610"/>
        <location filename="../ui/main_window.cpp" line="611"/>
        <source>Flag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="629"/>
        <source>Launched by</source>
        <translation>下发来源</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="632"/>
        <source>unknown host event</source>
        <translation>未知 Host 事件</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="666"/>
        <source>Range statistics</source>
        <translation>区间统计</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="666"/>
        <source>span</source>
        <translation>跨度</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="666"/>
        <source>busy union</source>
        <translation>忙碌并集</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="667"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="667"/>
        <source>kernels</source>
        <translation>kernel 数</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="675"/>
        <source>Range: %1 ms, busy %2 ms, %3 kernels</source>
        <translation>区间：%1 ms，忙碌 %2 ms，%3 个 kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="693"/>
        <source>Nothing is loaded.</source>
        <translation>尚未加载数据。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="710"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="710"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="711"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="715"/>
        <location filename="../ui/main_window.cpp" line="729"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="716"/>
        <location filename="../ui/main_window.cpp" line="730"/>
        <source>The file was not written; nothing was changed.

%1</source>
        <translation>文件未写入，未做任何修改。

%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="718"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="722"/>
        <source>Export all to folder</source>
        <translation>全部导出到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="735"/>
        <source>Exported %1 files to %2</source>
        <translation>已导出 %1 个文件到 %2</translation>
    </message>
</context>
<context>
    <name>bs::ui::OpsTableModel</name>
    <message>
        <location filename="../ui/panel_models.cpp" line="146"/>
        <source>wait anchor</source>
        <translation>等待锚点</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="168"/>
        <source>Rank (avg cost)</source>
        <translation>排名（平均开销）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="170"/>
        <source>Rank (total)</source>
        <translation>排名（总时长）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="172"/>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="174"/>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="176"/>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="178"/>
        <source>Duration avg (µs)</source>
        <translation>平均时长 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="180"/>
        <source>Wait avg (µs)</source>
        <translation>平均等待 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="182"/>
        <source>Total cost avg (µs)</source>
        <translation>平均总开销 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="184"/>
        <source>Wait ratio</source>
        <translation>等待占比</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="186"/>
        <source>Total (ms)</source>
        <translation>总时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="188"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="190"/>
        <source>PMU verdict</source>
        <translation>PMU 判定</translation>
    </message>
</context>
<context>
    <name>bs::ui::TimelineWidget</name>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="111"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="251"/>
        <source>No profile loaded</source>
        <translation>未加载 profile</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="464"/>
        <source>View %1</source>
        <translation>视图 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="492"/>
        <source>start %1, duration %2</source>
        <translation>开始 %1，时长 %2</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="498"/>
        <source>task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="498"/>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="508"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="509"/>
        <source>kernel sum</source>
        <translation>kernel 时长之和</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="512"/>
        <source>Device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="543"/>
        <source>Bubble %1: %2 device idle</source>
        <translation>空泡 %1：设备空闲 %2</translation>
    </message>
</context>
</TS>
