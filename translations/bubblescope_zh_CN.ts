<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ClusterText</name>
    <message>
        <location filename="../ui/cluster_models.cpp" line="58"/>
        <source>Service</source>
        <translation>服务时长</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="59"/>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="60"/>
        <source>Underfeed</source>
        <translation>供给不足时长</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="61"/>
        <source>Free (internal bubbles)</source>
        <translation>Free（内部空泡）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="62"/>
        <source>Prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="63"/>
        <source>Tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="64"/>
        <source>Exposed communication</source>
        <translation>未掩盖通信</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="65"/>
        <source>Communication wait</source>
        <translation>通信等待</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="72"/>
        <source>The step&apos;s service window: first host launch to the step&apos;s last device work.</source>
        <translation>Step 的服务窗口：从第一次 host 下发到该 step 最后一个 device 任务结束。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="73"/>
        <source>Device busy time not covered by exposed communication.</source>
        <translation>未被暴露通信覆盖的 device 忙碌时间。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="74"/>
        <source>Service minus the device busy union: prelaunch + internal bubbles + tail.</source>
        <translation>服务时长减去 device 忙碌并集：下发前空闲 + 内部空泡 + 尾部空闲。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="75"/>
        <source>Device-idle gaps inside the step (the profiler&apos;s Free).</source>
        <translation>Step 内部的 device 空闲间隙（profiler 的 Free）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="76"/>
        <source>From the step&apos;s start to its first device work (the profiler&apos;s Preparing).</source>
        <translation>从 step 开始到第一个 device 任务（profiler 的 Preparing）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="77"/>
        <source>From the step&apos;s last device work to the end of its service window.</source>
        <translation>从 step 最后一个 device 任务到其服务窗口结束。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="78"/>
        <source>Communication that no computation overlaps.</source>
        <translation>没有任何计算与之重叠的通信。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="79"/>
        <source>Wait Time of the step&apos;s collectives in communication.json.</source>
        <translation>communication.json 中该 step 集合通信的 Wait Time。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="87"/>
        <source>rank %1 (%2)</source>
        <translation>rank %1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="87"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="93"/>
        <source>rank %1 — %2</source>
        <translation>rank %1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="97"/>
        <source>whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="97"/>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="149"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="149"/>
        <location filename="../ui/cluster_models.cpp" line="175"/>
        <location filename="../ui/cluster_models.cpp" line="220"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="149"/>
        <location filename="../ui/cluster_models.cpp" line="220"/>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="150"/>
        <source>Value (ms)</source>
        <translation>数值 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="150"/>
        <source>Median (ms)</source>
        <translation>中位数 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="151"/>
        <source>Excess (ms)</source>
        <translation>超出 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="151"/>
        <source>Spread</source>
        <translation>离散度</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="152"/>
        <source>Last at</source>
        <translation>最后到达</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="162"/>
        <source>%1 of %2 collectives</source>
        <translation>%2 个集合通信中的 %1 个</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="175"/>
        <source>Collective / rank</source>
        <translation>集合通信 / rank</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="176"/>
        <source>Last arriver</source>
        <translation>最后到达者</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="176"/>
        <source>Wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="177"/>
        <source>Transit (ms)</source>
        <translation>传输 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="177"/>
        <source>Start (ms after first)</source>
        <translation>开始（晚于最早者 ms）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="178"/>
        <source>Elapse (ms)</source>
        <translation>耗时 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="178"/>
        <source>Wait ratio</source>
        <translation>等待占比</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="182"/>
        <source>none (tied)</source>
        <translation>无（并列）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="194"/>
        <source>The largest wait of any rank at this collective.</source>
        <translation>各 rank 在该集合通信上的最大等待时间。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="195"/>
        <source>The largest transit time of any rank at this collective.</source>
        <translation>各 rank 在该集合通信上的最大传输时间。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="196"/>
        <source>Skew: the last rank&apos;s start after the first one&apos;s.</source>
        <translation>偏差：最后一个 rank 的开始时间晚于第一个 rank 的时长。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="201"/>
        <source>arrives last</source>
        <translation>最后到达</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="220"/>
        <source> (ms)</source>
        <translation> (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="221"/>
        <source>Median of %1 ranks (ms)</source>
        <translation>%1 个 rank 的中位数 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="221"/>
        <source>Difference (ms)</source>
        <translation>差值 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="222"/>
        <source>Median rank: %1 (ms)</source>
        <translation>中位 rank：%1 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="223"/>
        <source>Median rank (ms)</source>
        <translation>中位 rank (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="234"/>
        <location filename="../ui/cluster_models.cpp" line="242"/>
        <source>—</source>
        <translation>—</translation>
    </message>
</context>
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
    <name>StackText</name>
    <message>
        <location filename="../ui/stack_text.cpp" line="66"/>
        <source>… %1 library frames …</source>
        <translation>… %1 个库帧 …</translation>
    </message>
    <message>
        <location filename="../ui/stack_text.cpp" line="70"/>
        <source>… %1 outer frames not shown</source>
        <translation>… 另有 %1 个外层帧未显示</translation>
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
        <location filename="../ui/timeline_widget.cpp" line="47"/>
        <source>Host</source>
        <translation>Host</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="48"/>
        <source>HCCL</source>
        <translation>HCCL</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="49"/>
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
    <name>bs::ui::ClusterBars</name>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="119"/>
        <source>Communication wait (inside communication, not stacked)</source>
        <translation>通信等待（包含在通信时间内，不参与堆叠）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="179"/>
        <source>Not analysed: %1</source>
        <translation>未分析：%1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="180"/>
        <source>Summed over the steps compared (%1):</source>
        <translation>参与比较的 step 之和（%1 个）：</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="245"/>
        <source>ms, summed over the steps compared (%1)</source>
        <translation>ms，参与比较的 step 之和（%1 个）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="185"/>
        <source>no communication.json</source>
        <translation>无 communication.json</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="267"/>
        <source>not analysed</source>
        <translation>未分析</translation>
    </message>
</context>
<context>
    <name>bs::ui::ClusterHeatmap</name>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="168"/>
        <source>%1: not measured for this rank</source>
        <translation>%1：该 rank 无此数据</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="169"/>
        <source>Not analysed: %1</source>
        <translation>未分析：%1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="172"/>
        <source>%1: &lt;b&gt;%2 ms&lt;/b&gt;</source>
        <translation>%1：&lt;b&gt;%2 ms&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="174"/>
        <source>Cluster median: %1 ms (%2%3 ms)</source>
        <translation>集群中位数：%1 ms（%2%3 ms）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="179"/>
        <source>Named slow in this step (%1).</source>
        <translation>在该 step 被判定为慢 rank（%1）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="292"/>
        <source>Outlined: the rank is named slow in that step.</source>
        <translation>带边框：该 rank 在此 step 被判定为慢 rank。</translation>
    </message>
</context>
<context>
    <name>bs::ui::ClusterView</name>
    <message>
        <location filename="../ui/cluster_view.cpp" line="69"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="71"/>
        <source>Open rank timeline</source>
        <translation>打开 rank 时间线</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="72"/>
        <source>Opens the selected rank in the timeline (or double-click a rank).</source>
        <translation>在时间线中打开所选 rank（或双击某个 rank）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="73"/>
        <source>Compare with the median rank</source>
        <translation>与中位 rank 比较</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="74"/>
        <source>Shows the selected rank&apos;s step metrics beside the cluster median.</source>
        <translation>将所选 rank 的 step 指标与集群中位数并列显示。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="104"/>
        <source>Analysing %1 ranks, one at a time…</source>
        <translation>正在逐个分析 %1 个 rank…</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="108"/>
        <source>Analysing %1…</source>
        <translation>正在分析 %1…</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="121"/>
        <source>Rank × step</source>
        <translation>Rank × Step</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="128"/>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="145"/>
        <source>Per rank: where the step time goes</source>
        <translation>各 rank：step 时间的去向</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="152"/>
        <source>Slow ranks</source>
        <translation>慢 rank</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="172"/>
        <source>Collectives matched across ranks (largest wait first)</source>
        <translation>跨 rank 匹配的集合通信（按最大等待排序）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="204"/>
        <source>Looking for ranks in %1…</source>
        <translation>正在 %1 中查找 rank…</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="219"/>
        <source>Cluster analysis cancelled.</source>
        <translation>集群分析已取消。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="224"/>
        <source>One rank: no cluster to compare.</source>
        <translation>只有一个 rank：没有可比较的集群。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="260"/>
        <source>Ranks analysed: %1 of %2. Steps compared: %3. Collectives matched across ranks: %4.</source>
        <translation>已分析 rank：%1 / %2。参与比较的 step：%3。跨 rank 匹配的集合通信：%4。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="266"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="271"/>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="278"/>
        <source>%1: %2 figures compared with ours, %3 differ.</source>
        <translation>%1：与我们的结果比较了 %2 个数值，%3 个不一致。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="299"/>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="311"/>
        <source>Open %1&apos;s timeline</source>
        <translation>打开 %1 的时间线</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="313"/>
        <source>Compare %1 with the median rank</source>
        <translation>将 %1 与中位 rank 比较</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="323"/>
        <source>%1 beside the cluster median</source>
        <translation>%1 与集群中位数对比</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="325"/>
        <source>%1: each step&apos;s figures beside the median over the analysed ranks, and the median rank&apos;s own (the rank whose total service is the median).</source>
        <translation>%1：每个 step 的数值与所有已分析 rank 的中位数并列，并附中位 rank（总服务时长处于中位的 rank）自身的数值。</translation>
    </message>
</context>
<context>
    <name>bs::ui::MainWindow</name>
    <message>
        <location filename="../ui/main_window.cpp" line="75"/>
        <source>BubbleScope</source>
        <translation>BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="83"/>
        <source>&lt;b&gt;Sample profile&lt;/b&gt; — a generated 8-layer MoE capture with every planted anomaly. Open your own profiling folder with File ▸ Open Folder… (Ctrl+O) or drop it here.</source>
        <translation>&lt;b&gt;示例 profile&lt;/b&gt; —— 生成的 8 层 MoE 采集数据，包含全部预置异常。请通过 文件 ▸ 打开文件夹…（Ctrl+O）打开自己的 profiling 目录，或将目录拖放到此处。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="93"/>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="95"/>
        <source>Rank to analyse</source>
        <translation>要分析的 rank</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="109"/>
        <source>Summary</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="130"/>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Bubbles</source>
        <translation>空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="136"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="142"/>
        <source>Filter ops by name…</source>
        <translation>按名称筛选算子…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="157"/>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="162"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="164"/>
        <location filename="../ui/main_window.cpp" line="471"/>
        <source>Health</source>
        <translation>采集健康</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="168"/>
        <source>Text report</source>
        <translation>文本报告</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="183"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="188"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="208"/>
        <location filename="../ui/main_window.cpp" line="327"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="236"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="237"/>
        <source>&amp;Open Folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="238"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="240"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="241"/>
        <source>Anomaly &amp;JSON…</source>
        <translation>异常 &amp;JSON…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="242"/>
        <source>Anomaly &amp;report (Markdown)…</source>
        <translation>异常报告(&amp;R)（Markdown）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="244"/>
        <source>&amp;Architecture report (Markdown)…</source>
        <translation>模型架构报告(&amp;A)（Markdown）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="247"/>
        <source>Export &amp;all to folder…</source>
        <translation>全部导出到文件夹(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="250"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="252"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="253"/>
        <source>&amp;Fit timeline</source>
        <translation>时间线适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="254"/>
        <source>Show &amp;host lanes</source>
        <translation>显示 Host 泳道(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="259"/>
        <source>Show &amp;Overlap Analysis lanes</source>
        <translation>显示 Overlap Analysis 泳道(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="263"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="264"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="273"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="274"/>
        <source>The language changes the next time BubbleScope starts.</source>
        <translation>语言将在下次启动 BubbleScope 时生效。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="277"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="278"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="280"/>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="281"/>
        <source>Timeline: Ctrl+wheel, W/S or +/− zoom; drag, A/D or horizontal wheel pan; F fit; N/P next/previous bubble by size; Shift+drag selects a range for statistics; click a group header to fold it.</source>
        <translation>时间线：Ctrl+滚轮、W/S 或 +/− 缩放；拖动、A/D 或水平滚轮平移；F 适应窗口；N/P 按大小跳到下一个/上一个空泡；Shift+拖动选择区间并统计；点击分组标题折叠。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="285"/>
        <source>&amp;About BubbleScope</source>
        <translation>关于 BubbleScope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="286"/>
        <source>About BubbleScope</source>
        <translation>关于 BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="287"/>
        <source>BubbleScope %1 — device-idle bubble analysis for Ascend NPU profiles.</source>
        <translation>BubbleScope %1 —— 昇腾 NPU profiling 数据的设备空闲空泡分析工具。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="306"/>
        <source>Open Profiling Folder</source>
        <translation>打开 profiling 文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="339"/>
        <source>Loading cancelled.</source>
        <translation>已取消加载。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="347"/>
        <source>Nothing loaded.</source>
        <translation>未加载任何数据。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="365"/>
        <source>Sample profile — BubbleScope</source>
        <translation>示例 profile — BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="366"/>
        <source>%1 — BubbleScope</source>
        <translation>%1 — BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="367"/>
        <source>Loaded %1</source>
        <translation>已加载 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="387"/>
        <source>Are there significant bubbles?</source>
        <translation>是否存在显著空泡？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="387"/>
        <source>Which step group holds them?</source>
        <translation>空泡位于哪个 step 组？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="388"/>
        <source>Prelaunch, tail, internal or inter-step?</source>
        <translation>是下发前、尾部、内部还是 step 之间的空闲？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="389"/>
        <source>Is there a host-side risk?</source>
        <translation>是否存在 Host 侧风险？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="389"/>
        <source>Is the evidence enough?</source>
        <translation>证据是否充分？</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="390"/>
        <source>Bubble-first summary</source>
        <translation>空泡优先摘要</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="397"/>
        <source>Data errors: %1. They lower the confidence (now %2); see the data-quality findings in the report.</source>
        <translation>数据错误：%1。这些错误降低了置信度（当前为 %2）；详见报告中的数据质量发现。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="405"/>
        <source>Steps (ms)</source>
        <translation>Step 指标 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="406"/>
        <location filename="../ui/main_window.cpp" line="432"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="406"/>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="406"/>
        <source>Service</source>
        <translation>服务时长</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="406"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="406"/>
        <source>Underfeed</source>
        <translation>供给不足率</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Internal</source>
        <translation>内部空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Largest</source>
        <translation>最大空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="432"/>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="430"/>
        <source>Profiler cross-check (%1, µs)</source>
        <translation>与 profiler 结果交叉核对（%1，µs）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="175"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="176"/>
        <source>Rank timeline</source>
        <translation>Rank 时间线</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="432"/>
        <source>Ours</source>
        <translation>本工具</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="432"/>
        <source>Profiler</source>
        <translation>Profiler</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="443"/>
        <source>mismatch</source>
        <translation>不一致</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="452"/>
        <source>No finding: the collection looks complete.</source>
        <translation>无发现：采集数据看起来完整。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="463"/>
        <source>Effect:</source>
        <translation>影响：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="464"/>
        <source>Fix:</source>
        <translation>修复：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="471"/>
        <source>Health (%1)</source>
        <translation>采集健康（%1）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="472"/>
        <source>Bubbles (%1)</source>
        <translation>空泡（%1）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="481"/>
        <source>Per-step device time (ms)</source>
        <translation>每个 step 的设备时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="483"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="483"/>
        <source>prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="483"/>
        <source>internal bubbles</source>
        <translation>内部空泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="483"/>
        <source>tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="509"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="517"/>
        <source>Top ops by total kernel time (ms)</source>
        <translation>总 kernel 时间最高的算子 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="519"/>
        <source>total</source>
        <translation>总计</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="556"/>
        <source>No call stacks collected: the line of code behind this bubble is unknown.</source>
        <translation>未采集调用栈：无法确定此空泡背后的代码行。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="559"/>
        <source>No user code in the call stacks of the %1 host events in this window (%2 carry a stack).</source>
        <translation>此窗口内 %1 个主机事件的调用栈中没有用户代码（%2 个带有调用栈）。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="564"/>
        <source>Your code behind this bubble:</source>
        <translation>此空泡背后的用户代码：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="565"/>
        <source>Line</source>
        <translation>代码行</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="565"/>
        <source>(click a line: its host events are highlighted on the timeline)</source>
        <translation>（点击一行：其 host 事件会在时间线上高亮）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="566"/>
        <source>Share of window</source>
        <translation>占窗口比例</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="566"/>
        <source>Host time (ms)</source>
        <translation>主机时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="566"/>
        <source>Path to the op</source>
        <translation>到算子的调用路径</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="587"/>
        <source>%1 host events under &lt;code&gt;%2&lt;/code&gt; are highlighted on the timeline (%3 ms of host time in this window).</source>
        <translation>&lt;code&gt;%2&lt;/code&gt; 下的 %1 个 host 事件已在时间线上高亮（此窗口内 host 时间 %3 ms）。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="598"/>
        <source>Call stack of %1, the largest of them (innermost first, ● your code):</source>
        <translation>其中最大的事件 %1 的调用栈（最内层在前，● 为你的代码）：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="634"/>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="643"/>
        <source>Side</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="643"/>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="643"/>
        <location filename="../ui/main_window.cpp" line="693"/>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="643"/>
        <source>Duration (µs)</source>
        <translation>时长 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="643"/>
        <source>Wait (µs)</source>
        <translation>等待 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="644"/>
        <location filename="../ui/main_window.cpp" line="694"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="653"/>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="655"/>
        <source>device idle</source>
        <translation>设备空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="657"/>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="662"/>
        <source>Host coverage</source>
        <translation>Host 覆盖率</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="662"/>
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="663"/>
        <source>comm</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="664"/>
        <source>parallelism</source>
        <translation>并行度</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="667"/>
        <source>Host events in the window:</source>
        <translation>窗口内的 Host 事件：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="674"/>
        <source>There is no host trace: causes cannot be attributed.</source>
        <translation>没有 Host trace：无法归因。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="676"/>
        <source>Candidate causes (possible, not a verdict):</source>
        <translation>候选原因（可能原因，并非结论）：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="692"/>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="695"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="696"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="697"/>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="698"/>
        <source>Block dim</source>
        <translation>Block dim</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="699"/>
        <source>Input shapes</source>
        <translation>输入 shape</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="700"/>
        <source>Output shapes</source>
        <translation>输出 shape</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="705"/>
        <source>PMU verdict</source>
        <translation>PMU 判定</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="706"/>
        <location filename="../ui/main_window.cpp" line="707"/>
        <source>Flag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="725"/>
        <source>Launched by</source>
        <translation>下发来源</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="728"/>
        <source>unknown host event</source>
        <translation>未知 Host 事件</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="762"/>
        <source>Range statistics</source>
        <translation>区间统计</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="762"/>
        <source>span</source>
        <translation>跨度</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="762"/>
        <source>busy union</source>
        <translation>忙碌并集</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="763"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="763"/>
        <source>kernels</source>
        <translation>kernel 数</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="771"/>
        <source>Range: %1 ms, busy %2 ms, %3 kernels</source>
        <translation>区间：%1 ms，忙碌 %2 ms，%3 个 kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="789"/>
        <source>Nothing is loaded.</source>
        <translation>尚未加载数据。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="806"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="806"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="807"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="811"/>
        <location filename="../ui/main_window.cpp" line="825"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="812"/>
        <location filename="../ui/main_window.cpp" line="826"/>
        <source>The file was not written; nothing was changed.

%1</source>
        <translation>文件未写入，未做任何修改。

%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="814"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="818"/>
        <source>Export all to folder</source>
        <translation>全部导出到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="831"/>
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
        <location filename="../ui/timeline_widget.cpp" line="112"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="329"/>
        <source>No profile loaded</source>
        <translation>未加载 profile</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="543"/>
        <source>View %1</source>
        <translation>视图 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="571"/>
        <source>start %1, duration %2</source>
        <translation>开始 %1，时长 %2</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="577"/>
        <source>task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="577"/>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="587"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="588"/>
        <source>kernel sum</source>
        <translation>kernel 时长之和</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="591"/>
        <source>Device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="605"/>
        <source>Call stack (innermost first, ● your code):</source>
        <translation>调用栈（最内层在前，● 为你的代码）：</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="629"/>
        <source>Bubble %1: %2 device idle</source>
        <translation>空泡 %1：设备空闲 %2</translation>
    </message>
</context>
</TS>
