<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ClusterText</name>
    <message>
        <location filename="../ui/cluster_models.cpp" line="52"/>
        <source>Service</source>
        <translation>服务时长</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="54"/>
        <source>Computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="56"/>
        <source>Underfeed</source>
        <translation>供给不足时长</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="58"/>
        <source>Free (internal bubbles)</source>
        <translation>内部空闲（内部气泡）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="60"/>
        <source>Prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="62"/>
        <source>Tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="64"/>
        <source>Exposed communication</source>
        <translation>未掩盖通信</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="66"/>
        <source>Communication wait</source>
        <translation>通信等待</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="68"/>
        <source>Lateness cost</source>
        <translation>迟到代价</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="76"/>
        <source>The step&apos;s service window: first host launch to the step&apos;s last device work.</source>
        <translation>Step 的服务窗口：从第一次 host 下发到该 step 最后一个 device 任务结束。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="78"/>
        <source>Device busy time not covered by exposed communication.</source>
        <translation>未被暴露通信覆盖的 device 忙碌时间。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="80"/>
        <source>Service minus the device busy union: prelaunch + internal bubbles + tail.</source>
        <translation>服务时长减去 device 忙碌并集：下发前空闲 + 内部气泡 + 尾部空闲。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="82"/>
        <source>Device-idle gaps inside the step (the profiler&apos;s Free).</source>
        <translation>Step 内部的 device 空闲间隙（profiler 的 Free）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="84"/>
        <source>From the step&apos;s start to its first device work (the profiler&apos;s Preparing).</source>
        <translation>从 step 开始到第一个 device 任务（profiler 的 Preparing）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="86"/>
        <source>From the step&apos;s last device work to the end of its service window.</source>
        <translation>从 step 最后一个 device 任务到其服务窗口结束。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="88"/>
        <source>Communication that no computation overlaps.</source>
        <translation>没有任何计算与之重叠的通信。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="90"/>
        <source>Wait Time of the step&apos;s collectives in communication.json.</source>
        <translation>communication.json 中该 step 集合通信的 Wait Time。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="92"/>
        <source>What the other ranks wait for this rank in the step, summed over its collectives.</source>
        <translation>该 step 中其他 rank 等待此 rank 的时间，按其集合通信求和。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="100"/>
        <source>rank %1 (%2)</source>
        <translation>rank %1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="100"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="106"/>
        <source>rank %1 — %2</source>
        <translation>rank %1 — %2</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="110"/>
        <source>whole capture</source>
        <translation>整个采集</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="110"/>
        <source>step %1</source>
        <translation>step %1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="191"/>
        <source>step start</source>
        <translation>step 开始</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="192"/>
        <source>prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="193"/>
        <source>computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="194"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="195"/>
        <source>exposed communication</source>
        <translation>未掩盖通信</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="196"/>
        <source>unexplained</source>
        <translation>未解释</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="212"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="212"/>
        <source>Slow in</source>
        <translation>慢的 step</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="212"/>
        <source>Cost per step (ms)</source>
        <translation>每 step 代价 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="213"/>
        <source>Cluster loss (ms)</source>
        <translation>集群损失 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="213"/>
        <location filename="../ui/cluster_models.cpp" line="267"/>
        <source>Lateness (ms)</source>
        <translation>迟到 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="213"/>
        <source>Expected gain (ms)</source>
        <translation>预期收益 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="214"/>
        <source>Collective</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="214"/>
        <source>Cause</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="214"/>
        <source>Cause term (ms)</source>
        <translation>原因项 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="221"/>
        <source>slow in %1 of %2 steps</source>
        <translation>%2 个 step 中慢 %1 个</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="224"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="228"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="234"/>
        <source>Per slow step: what the other ranks wait for this one (the median rank&apos;s wait, summed over the step&apos;s collectives).</source>
        <translation>每个慢 step：其他 rank 等待此 rank 的时间（中位 rank 的等待，按该 step 的集合通信求和）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="236"/>
        <source>Per slow step, if this rank arrived on time: the step time a waiting rank saves (the median over them), replayed on each one&apos;s own trace.</source>
        <translation>每个慢 step，若该 rank 按时到达：等待它的 rank 节省的 step 时间（取其中位数），在各自的 trace 上回放得出。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="239"/>
        <source>Per slow step: every other rank&apos;s wait for this one, summed.</source>
        <translation>每个慢 step：所有其他 rank 等待此 rank 的时间之和。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="241"/>
        <source>At its costliest collective: its arrival after the earliest rank&apos;s (aligned clocks).</source>
        <translation>在代价最大的集合通信处：它比最早到达的 rank 晚到的时间（对齐时钟）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="250"/>
        <source>high</source>
        <translation>高</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="251"/>
        <source>medium</source>
        <translation>中</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="252"/>
        <location filename="../ui/cluster_models.cpp" line="279"/>
        <source>undetermined</source>
        <translation>无法确定</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="266"/>
        <location filename="../ui/cluster_models.cpp" line="335"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="267"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="268"/>
        <source>Earliest rank&apos;s sync (ms)</source>
        <translation>最早 rank 的同步 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="269"/>
        <source>Aligned start (ms)</source>
        <translation>对齐开始 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="269"/>
        <source>Raw start (ms)</source>
        <translation>原始开始 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="270"/>
        <source>Sync (ms)</source>
        <translation>同步 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="273"/>
        <source>The rank&apos;s start on the aligned clock, after the first aligned arrival.</source>
        <translation>该 rank 在对齐时钟上的开始时间，相对最早的对齐到达。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="275"/>
        <source>The rank&apos;s start on its own clock, after the earliest raw start.</source>
        <translation>该 rank 在自身时钟上的开始时间，相对最早的原始开始。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="295"/>
        <source>%1 ranks have it; %2 shown.</source>
        <translation>%1 个 rank 参与；显示 %2 个。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="297"/>
        <source>The last arrival after the earliest one, on the aligned clock; the next latest arrives %1 ms before the last.</source>
        <translation>对齐时钟上最后到达比最早到达晚的时间；次晚到达者比最后到达者早 %1 ms。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="301"/>
        <source>The earliest rank&apos;s synchronization time: how long it waited for the others to arrive.</source>
        <translation>最早到达 rank 的同步时间：它等待其他 rank 到达的时长。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="315"/>
        <source>Raw start: %1 µs on the rank&apos;s own clock.</source>
        <translation>原始开始：该 rank 自身时钟上的 %1 µs。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="335"/>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="266"/>
        <source>Collective / rank</source>
        <translation>集合通信 / rank</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="266"/>
        <source>Last arriver</source>
        <translation>最后到达者</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="268"/>
        <source>Wait (ms)</source>
        <translation>等待 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="270"/>
        <source>Transit (ms)</source>
        <translation>传输 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="270"/>
        <source>Elapse (ms)</source>
        <translation>耗时 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="303"/>
        <source>The largest wait of any rank at this collective.</source>
        <translation>各 rank 在该集合通信上的最大等待时间。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="304"/>
        <source>The largest transit time of any rank at this collective.</source>
        <translation>各 rank 在该集合通信上的最大传输时间。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="309"/>
        <source>arrives last</source>
        <translation>最后到达</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="336"/>
        <source> (ms)</source>
        <translation> (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="337"/>
        <source>Median of %1 ranks (ms)</source>
        <translation>%1 个 rank 的中位数 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="337"/>
        <source>Difference (ms)</source>
        <translation>差值 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="338"/>
        <source>Median rank: %1 (ms)</source>
        <translation>中位 rank：%1 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="340"/>
        <source>Median rank (ms)</source>
        <translation>中位 rank (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="350"/>
        <location filename="../ui/cluster_models.cpp" line="359"/>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="257"/>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="258"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../ui/cluster_models.cpp" line="259"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>Glossary</name>
    <message>
        <location filename="../ui/glossary.cpp" line="32"/>
        <source>bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="32"/>
        <source>A span where no device stream runs any kernel (the union of all streams is idle). Windows of 50 µs or more are significant and get an id (b0001, the longest first).</source>
        <translation>所有 device 流都没有运行任何 kernel 的时段（所有流的并集空闲）。50 µs 及以上的窗口视为显著，并获得编号（b0001，最长者在前）。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="53"/>
        <source>prelaunch</source>
        <translation>prelaunch（启动前空闲）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="53"/>
        <source>From the step&apos;s start to its first device work: the host prepares the step while the device waits (the profiler&apos;s Preparing).</source>
        <translation>从 step 开始到其第一个 device 工作：host 准备该 step，device 等待（即 profiler 的 Preparing）。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="55"/>
        <source>tail</source>
        <translation>tail（尾部空闲）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="55"/>
        <source>From the step&apos;s last device work to the step&apos;s end.</source>
        <translation>从 step 的最后一个 device 工作到 step 结束。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="34"/>
        <source>internal bubble</source>
        <translation>内部气泡</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="34"/>
        <source>An idle gap between two kernels inside a step (the profiler&apos;s Free).</source>
        <translation>step 内两个 kernel 之间的空闲间隙（即 profiler 的 Free）。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="35"/>
        <source>underfeed</source>
        <translation>underfeed（供给不足）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="35"/>
        <source>Step service minus device busy time: how long the device waited in the step. The underfeed ratio divides it by the service.</source>
        <translation>step 服务时间减去 device 忙碌时间：device 在该 step 中等待了多久。underfeed 比例为其除以服务时间。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="37"/>
        <source>service</source>
        <translation>服务时间</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="37"/>
        <source>A step&apos;s wall time: from its start marker to its end.</source>
        <translation>step 的墙钟时间：从开始标记到结束。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="38"/>
        <source>dominant group</source>
        <translation>主导组</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="38"/>
        <source>The step group with the most service time: steps that run the same kernel sequence (the same template). Its figures are the ones compared and reported first.</source>
        <translation>服务时间最多的 step 组：运行相同 kernel 序列（同一模板）的 step。其指标会被优先比较和报告。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="40"/>
        <source>host coverage</source>
        <translation>host 覆盖率</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="40"/>
        <source>The share of a bubble covered by any host event (union over the host threads). Low coverage: nothing traced explains the wait.</source>
        <translation>气泡被任意 host 事件覆盖的比例（对各 host 线程取并集）。覆盖率低：没有任何被追踪的事件能解释这段等待。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="42"/>
        <source>parallelism</source>
        <translation>并行度</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="42"/>
        <source>How many host threads are busy at once inside a bubble, on average: above 1, threads overlap.</source>
        <translation>气泡内平均同时忙碌的 host 线程数：大于 1 表示线程重叠。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="44"/>
        <source>hidden issue</source>
        <translation>隐藏问题</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="44"/>
        <source>The steps look healthy on average, but a few windows hold most of the idle time: the averages hide them.</source>
        <translation>各 step 平均看起来正常，但少数窗口占据了大部分空闲时间：平均值掩盖了它们。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="115"/>
        <source>wait anchor</source>
        <translation>等待锚点</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="115"/>
        <source>A kernel whose own &apos;wait&apos; time is large because it waits for something before it (a collective, a sync): its cost belongs to what it waits for.</source>
        <translation>自身 wait 时间很大的 kernel，因为它在等待之前的某件事（集合通信、同步）：其开销属于它所等待的对象。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="112"/>
        <source>WAIT_ANCHOR_FALSE_HOTSPOT</source>
        <translation>WAIT_ANCHOR_FALSE_HOTSPOT</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="112"/>
        <source>The op ranks high only through its wait time: ranking it as a hot spot would be wrong.</source>
        <translation>该算子仅因等待时间而排名靠前：把它当作热点是错误的。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="114"/>
        <source>WAIT_POLLUTION_RISK</source>
        <translation>WAIT_POLLUTION_RISK</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="114"/>
        <source>The op&apos;s waits overlap a collective: its wait is the communication&apos;s, not its own.</source>
        <translation>该算子的等待与集合通信重叠：这段等待属于通信，而非它自己。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="123"/>
        <source>PMU verdict</source>
        <translation>PMU 结论</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="123"/>
        <source>What the op&apos;s hardware counters say bounds it (compute, memory, or too few cores), when the collection has PMU data.</source>
        <translation>采集含 PMU 数据时，算子的硬件计数器所指示的瓶颈（计算、访存或核数不足）。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="136"/>
        <source>last arriver</source>
        <translation>最后到达者</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="136"/>
        <source>In a collective, the rank that reaches it last on the aligned clock (every rank&apos;s clock aligned on the collectives&apos; ends): the others wait for it.</source>
        <translation>集合通信中按对齐时钟最后到达的 rank（各 rank 的时钟按集合通信的结束时刻对齐）：其他 rank 都在等它。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="31"/>
        <source>Bubbles and steps</source>
        <translation>气泡与 step</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="51"/>
        <source>Scopes: where a window lies, what a recommendation concerns</source>
        <translation>范围：窗口所在的位置、建议针对的对象</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="67"/>
        <source>Window labels: candidate causes, never a proven one</source>
        <translation>窗口标签：候选原因，而非已证实的原因</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="87"/>
        <source>Tags of steps, step groups and the capture</source>
        <translation>step、step 组与整个采集的标记</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="111"/>
        <source>Tags of ops</source>
        <translation>算子的标记</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="130"/>
        <source>Several ranks (the Cluster view)</source>
        <translation>多个 rank（集群视图）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="233"/>
        <source>Glossary</source>
        <translation>术语表</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="52"/>
        <source>step_internal</source>
        <translation>step_internal（step 内部）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="52"/>
        <source>A window between two kernels inside a step: an internal bubble.</source>
        <translation>step 内两个 kernel 之间的窗口：即内部气泡。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="56"/>
        <source>global</source>
        <translation>global（全局）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="56"/>
        <source>A window outside every step (before the first, after the last, between two steps); a recommendation that concerns the whole capture or its collection.</source>
        <translation>位于所有 step 之外的窗口（第一个 step 之前、最后一个 step 之后、两个 step 之间）；或针对整个采集或其采集配置的建议。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="58"/>
        <source>step_group</source>
        <translation>step_group（step 组）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="58"/>
        <source>A recommendation that concerns one step group (g0 is the dominant group).</source>
        <translation>针对某个 step 组的建议（g0 为主导组）。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="59"/>
        <source>structure</source>
        <translation>structure（结构）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="59"/>
        <source>A recommendation that concerns the model&apos;s structures (its layers, as the Layers tab shows them).</source>
        <translation>针对模型结构（即“层”标签页所示的各层）的建议。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="61"/>
        <source>op</source>
        <translation>op（算子）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="61"/>
        <source>A recommendation that concerns one op.</source>
        <translation>针对某个算子的建议。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="68"/>
        <source>possible_sync_or_h2d</source>
        <translation>possible_sync_or_h2d（可能是同步或 H2D 拷贝）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="68"/>
        <source>Host sync or copy markers (aten::to, aten::item, aclrtSynchronize*, aclrtMemcpy*, HostToDevice…) cover at least 20 % of the window (default threshold): the device probably waits for a synchronisation or a host-to-device copy.</source>
        <translation>host 侧同步或拷贝标记（aten::to、aten::item、aclrtSynchronize*、aclrtMemcpy*、HostToDevice…）覆盖窗口的 20 % 以上（默认阈值）：device 很可能在等待一次同步或 host 到 device 的拷贝。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="71"/>
        <source>possible_comm_wait</source>
        <translation>possible_comm_wait（可能在等待通信）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="71"/>
        <source>Communication markers (c10d*, *Hccl*, *hcom*, StreamWaitEvent, the HCCL lanes) cover at least 20 % of the window: the device probably waits for a collective.</source>
        <translation>通信标记（c10d*、*Hccl*、*hcom*、StreamWaitEvent、HCCL 泳道）覆盖窗口的 20 % 以上：device 很可能在等待某个集合通信。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="73"/>
        <source>possible_untraced_host_blocking</source>
        <translation>possible_untraced_host_blocking（可能是未被追踪的 host 阻塞）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="73"/>
        <source>Host events cover less than 5 % of the window: the host did something the trace does not show (a lock, garbage collection, I/O, the data loader). Sample the host to see it.</source>
        <translation>host 事件覆盖窗口不到 5 %：host 在做 trace 中看不到的事（锁、垃圾回收、I/O、数据加载）。对 host 采样才能看到。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="75"/>
        <source>possible_host_launch_lag</source>
        <translation>possible_host_launch_lag（可能是 host 下发滞后）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="75"/>
        <source>No sync or communication marker explains the window, but host events cover at least 10 % of it: the host was busy and launched the next kernel late.</source>
        <translation>没有同步或通信标记能解释该窗口，但 host 事件覆盖了其 10 % 以上：host 正忙，下一个 kernel 下发得晚了。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="77"/>
        <source>possible_python_serialization_or_lock</source>
        <translation>possible_python_serialization_or_lock（可能是 Python 串行化或锁）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="77"/>
        <source>No rule above applies and the host threads barely overlap (parallelism under 1.2): the host work runs one thread at a time, as under the Python GIL or a lock.</source>
        <translation>以上规则都不适用，且各 host 线程几乎不重叠（并行度低于 1.2）：host 的工作一次只在一个线程上运行，如受 Python GIL 或锁的限制。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="79"/>
        <source>insufficient_evidence</source>
        <translation>insufficient_evidence（证据不足）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="79"/>
        <source>Nothing recorded explains the window, or the capture itself may have made it (a capture-boundary gap): no cause is named.</source>
        <translation>记录的数据都无法解释该窗口，或该窗口可能由采集本身造成（采集边界间隙）：不给出原因。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="88"/>
        <source>PRELAUNCH_GAP_HEAVY</source>
        <translation>PRELAUNCH_GAP_HEAVY（下发前空闲过长）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="88"/>
        <source>A step whose prelaunch is at least max(1 ms, 10 % of its service).</source>
        <translation>下发前空闲不少于 max(1 ms, 服务时间的 10 %) 的 step。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="89"/>
        <source>TAIL_GAP_HEAVY</source>
        <translation>TAIL_GAP_HEAVY（尾部空闲过长）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="89"/>
        <source>A step whose tail is at least max(1 ms, 10 % of its service).</source>
        <translation>尾部空闲不少于 max(1 ms, 服务时间的 10 %) 的 step。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="90"/>
        <source>INTERNAL_BUBBLE_HEAVY</source>
        <translation>INTERNAL_BUBBLE_HEAVY（内部气泡过大）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="90"/>
        <source>A step whose largest internal bubble is at least max(1 ms, 10 % of its service).</source>
        <translation>最大内部气泡不少于 max(1 ms, 服务时间的 10 %) 的 step。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="91"/>
        <source>DEVICE_IDLE_GAP_HEAVY</source>
        <translation>DEVICE_IDLE_GAP_HEAVY（device 空闲过多）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="91"/>
        <source>A step whose underfeed ratio is 0.30 or more, or that carries one of the three tags above.</source>
        <translation>underfeed 比例不低于 0.30，或带有以上三个标记之一的 step。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="93"/>
        <source>RECURRING_BUBBLE_PATTERN</source>
        <translation>RECURRING_BUBBLE_PATTERN（重复出现的气泡模式）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="93"/>
        <source>In a group of two or more steps, at least 60 % of the steps have a significant bubble and their largest one sits at the same place (after the same kernel).</source>
        <translation>在包含两个及以上 step 的组中，至少 60 % 的 step 有显著气泡，且其最大气泡位于同一位置（同一个 kernel 之后）。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="95"/>
        <source>HOST_ORIGINATED_RISK</source>
        <translation>HOST_ORIGINATED_RISK（源自 host 的风险）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="95"/>
        <source>A step group with an underfeed ratio of 0.30 or more and a recurring bubble whose top windows the host events cover (10 % or more): the idle most likely comes from the host.</source>
        <translation>underfeed 比例不低于 0.30、存在重复气泡，且其 Top 窗口被 host 事件覆盖（10 % 以上）的 step 组：空闲很可能来自 host。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="97"/>
        <source>UNTRACED_HOST_BLOCKING_RISK</source>
        <translation>UNTRACED_HOST_BLOCKING_RISK（未被追踪的 host 阻塞风险）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="97"/>
        <source>A step group with an underfeed ratio of 0.30 or more and a recurring bubble (or a single step) whose top windows hold almost no host event (coverage under 5 %): the host blocks on something the trace does not show; sample the host process.</source>
        <translation>underfeed 比例不低于 0.30、存在重复气泡（或只有一个 step），且其 Top 窗口几乎没有 host 事件（覆盖率低于 5 %）的 step 组：host 阻塞在 trace 看不到的地方；请对 host 进程采样。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="100"/>
        <source>VARIABLE_SHAPE_SAME_TEMPLATE</source>
        <translation>VARIABLE_SHAPE_SAME_TEMPLATE（同一模板、输入 shape 不同）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="100"/>
        <source>Steps of one group run the same kernel sequence with different input shapes (dynamic shapes). Not evaluated when shapes were not recorded.</source>
        <translation>同一组的各 step 运行相同的 kernel 序列，但输入 shape 不同（动态 shape）。未记录 shape 时不评估。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="102"/>
        <source>PARTIAL_CAPTURE_BOUNDARY</source>
        <translation>PARTIAL_CAPTURE_BOUNDARY（采集边界不完整）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="102"/>
        <source>The capture cuts a step, kernels ran before the first step marker, or the largest gap lies at the capture&apos;s edge: such edge windows are never attributed to the host.</source>
        <translation>采集截断了某个 step、在第一个 step 标记之前已有 kernel 运行，或最大间隙位于采集边缘：这类边缘窗口从不归因于 host。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="104"/>
        <source>COMM_SYNC_RISK</source>
        <translation>COMM_SYNC_RISK（通信同步风险）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="104"/>
        <source>A top window is at least 20 % communication markers, or an op&apos;s waits belong to a collective (WAIT_POLLUTION_RISK): communication or synchronisation holds the device.</source>
        <translation>某个 Top 窗口中通信标记占 20 % 以上，或某算子的等待属于集合通信（WAIT_POLLUTION_RISK）：通信或同步占住了 device。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="106"/>
        <source>COMM_WAIT_HEAVY</source>
        <translation>COMM_WAIT_HEAVY（通信等待过多）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="106"/>
        <source>A collective of communication.json spends more than 20 % of Wait + Transit waiting for the other ranks: another rank arrives late.</source>
        <translation>communication.json 中某个集合通信在 Wait + Transit 中有超过 20 % 的时间在等待其他 rank：有其他 rank 到达得晚。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="108"/>
        <source>AICPU_EXPOSED_RISK</source>
        <translation>AICPU_EXPOSED_RISK（AI CPU 暴露风险）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="108"/>
        <source>At least one AI CPU op is AICPU_EXPOSED_NOT_ALLOWED: the device&apos;s compute cores idle while it runs.</source>
        <translation>至少有一个 AI CPU 算子为 AICPU_EXPOSED_NOT_ALLOWED：它运行时 device 的计算核空闲。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="117"/>
        <source>AICPU_MASKED_BUT_UNDESIRABLE</source>
        <translation>AICPU_MASKED_BUT_UNDESIRABLE（已被掩盖但不理想）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="117"/>
        <source>An AI CPU op that compute kernels overlap for 90 % or more of its time: it costs no idle now, but AI CPU ops are slow and worth replacing.</source>
        <translation>计算 kernel 覆盖其 90 % 以上时间的 AI CPU 算子：目前不造成空闲，但 AI CPU 算子较慢，值得替换。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="119"/>
        <source>AICPU_PARTIALLY_EXPOSED</source>
        <translation>AICPU_PARTIALLY_EXPOSED（部分暴露）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="119"/>
        <source>An AI CPU op that compute kernels overlap for 20 % to 90 % of its time: the rest is device time nothing else uses.</source>
        <translation>计算 kernel 覆盖其 20 % 到 90 % 时间的 AI CPU 算子：其余时间 device 没有其他工作。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="121"/>
        <source>AICPU_EXPOSED_NOT_ALLOWED</source>
        <translation>AICPU_EXPOSED_NOT_ALLOWED（暴露，不应出现）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="121"/>
        <source>An AI CPU op that compute kernels overlap for less than 20 % of its time: the device waits for it; run it on the AI Core instead.</source>
        <translation>计算 kernel 覆盖其时间不到 20 % 的 AI CPU 算子：device 在等它；请改为在 AI Core 上运行。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="131"/>
        <source>clock offset</source>
        <translation>时钟偏移</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="131"/>
        <source>How far a rank&apos;s clock is from the reference rank&apos;s, measured on the ends of the collectives they share (all ranks leave a collective together): the median of the differences. Their spread (MAD) says how far it can be trusted.</source>
        <translation>某 rank 的时钟与参考 rank 时钟之差，按双方共有的集合通信的结束时刻测量（各 rank 同时离开一个集合通信）：取差值的中位数。差值的离散度（MAD）说明其可信程度。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="134"/>
        <source>aligned clock</source>
        <translation>对齐时钟</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="134"/>
        <source>Every rank&apos;s times moved by its clock offset onto one clock, so that arrivals can be compared across ranks. Raw clocks: each rank as it recorded.</source>
        <translation>将每个 rank 的时间按其时钟偏移移到同一时钟上，以便跨 rank 比较到达时刻。原始时钟：各 rank 自己记录的时间。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="138"/>
        <source>confidence (high / medium / undetermined)</source>
        <translation>置信度（高 / 中 / 无法确定）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="138"/>
        <source>How sure the last arriver is. Undetermined: fewer than two ranks have a start, or the last two arrive closer together than the clocks can tell apart; no rank is named. High: at least half of the other ranks&apos; own sync times match their wait for it. Medium: fewer do.</source>
        <translation>最后到达者的可信程度。无法确定：有开始时间的 rank 少于两个，或最后两个 rank 的到达时刻之差小于时钟所能分辨的范围；不指出任何 rank。高：其他 rank 中至少一半的自身同步时间与它们对该 rank 的等待相符。中：相符的更少。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="141"/>
        <source>lateness cost</source>
        <translation>迟到代价</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="141"/>
        <source>What the other ranks wait for a rank in a step: the median rank&apos;s wait for it, summed over the step&apos;s collectives. A rank is named slow when its cost is at least max(0.1 ms, 0.5 % of the step&apos;s median service).</source>
        <translation>一个 step 中其他 rank 为等待某 rank 所花的时间：中位 rank 对它的等待，按该 step 的集合通信求和。代价不少于 max(0.1 ms, 该 step 服务时间中位数的 0.5 %) 时，该 rank 被判定为慢 rank。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="144"/>
        <source>imbalance</source>
        <translation>负载不均衡</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="144"/>
        <source>A figure (computing, free, prelaunch or exposed communication time) that spreads across the ranks by more than 5 % ((max − min) / mean) while no rank waits for the rank at the extreme: an uneven load, not a slow rank.</source>
        <translation>某项指标（计算、内部空闲、下发前空闲或未掩盖通信时间）在各 rank 间的离散度超过 5 %（(最大 − 最小) / 平均），而没有 rank 在等待处于极值的 rank：这是负载不均，不是慢 rank。</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="214"/>
        <source>compute-bound</source>
        <translation>计算受限</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="215"/>
        <source>memory-bound</source>
        <translation>访存受限</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="216"/>
        <source>scalar-bound</source>
        <translation>标量受限</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="217"/>
        <source>mte1-bound</source>
        <translation>MTE1 搬运受限</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="218"/>
        <source>mte3-bound</source>
        <translation>MTE3 搬运受限</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="219"/>
        <source>fixpipe-bound</source>
        <translation>FixPipe 受限</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="220"/>
        <source>pmu_unavailable</source>
        <translation>无 PMU 数据</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="221"/>
        <source>not_applicable</source>
        <translation>不适用</translation>
    </message>
</context>
<context>
    <name>Inspector</name>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="43"/>
        <source>No call stacks collected: the line of code behind this bubble is unknown.</source>
        <translation>未采集调用栈：无法确定此气泡背后的代码行。</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="46"/>
        <source>No user code in the call stacks of the %1 host events in this window (%2 carry a stack).</source>
        <translation>此窗口内 %1 个主机事件的调用栈中没有用户代码（%2 个带有调用栈）。</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="51"/>
        <source>Your code behind this bubble:</source>
        <translation>此气泡背后的用户代码：</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="52"/>
        <source>(click a line: its host events are highlighted on the timeline)</source>
        <translation>（点击一行：其 host 事件会在时间线上高亮）</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="52"/>
        <source>Line</source>
        <translation>代码行</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="53"/>
        <source>Share of window</source>
        <translation>占窗口比例</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="53"/>
        <source>Host time (ms)</source>
        <translation>主机时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="53"/>
        <source>Path to the op</source>
        <translation>到算子的调用路径</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="74"/>
        <source>%1 host events under &lt;code&gt;%2&lt;/code&gt; are highlighted on the timeline (%3 ms of host time in this window).</source>
        <translation>&lt;code&gt;%2&lt;/code&gt; 下的 %1 个 host 事件已在时间线上高亮（此窗口内 host 时间 %3 ms）。</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="85"/>
        <source>Call stack of %1, the largest of them (innermost first, ● your code):</source>
        <translation>其中最大的事件 %1 的调用栈（最内层在前，● 为你的代码）：</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="97"/>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="106"/>
        <source>Fixing its cause (%1):</source>
        <translation>修复其原因（%1）：</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="112"/>
        <source>Side</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="112"/>
        <source>Kernel</source>
        <translation>Kernel</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="112"/>
        <location filename="../ui/panels/inspector.cpp" line="163"/>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="112"/>
        <source>Duration (µs)</source>
        <translation>时长 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="112"/>
        <source>Wait (µs)</source>
        <translation>等待 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="113"/>
        <location filename="../ui/panels/inspector.cpp" line="164"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="123"/>
        <source>before</source>
        <translation>之前</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="125"/>
        <source>device idle</source>
        <translation>设备空闲</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="127"/>
        <source>after</source>
        <translation>之后</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="132"/>
        <source>Host coverage</source>
        <translation>Host 覆盖率</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="132"/>
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="133"/>
        <source>comm</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="134"/>
        <source>parallelism</source>
        <translation>并行度</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="137"/>
        <source>Host events in the window:</source>
        <translation>窗口内的 Host 事件：</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="144"/>
        <source>There is no host trace: causes cannot be attributed.</source>
        <translation>没有 Host trace：无法归因。</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="146"/>
        <source>Candidate causes (possible, not a verdict):</source>
        <translation>候选原因（可能原因，并非结论）：</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="162"/>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="166"/>
        <location filename="../ui/panels/inspector.cpp" line="228"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="166"/>
        <source>%1 ms from the capture&apos;s start (epoch %2 µs)</source>
        <translation>距采集开始 %1 ms（epoch %2 µs）</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="169"/>
        <location filename="../ui/panels/inspector.cpp" line="229"/>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="170"/>
        <source>Wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="171"/>
        <source>Block dim</source>
        <translation>Block dim</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="172"/>
        <source>Input shapes</source>
        <translation>输入 shape</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="173"/>
        <source>Output shapes</source>
        <translation>输出 shape</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="178"/>
        <source>PMU verdict</source>
        <translation>PMU 结论</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="179"/>
        <location filename="../ui/panels/inspector.cpp" line="180"/>
        <source>Flag</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="201"/>
        <source>Launched by</source>
        <translation>下发来源</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="199"/>
        <source>unknown host event</source>
        <translation>未知 Host 事件</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="225"/>
        <source>Process / thread</source>
        <translation>进程 / 线程</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="226"/>
        <source>Call depth</source>
        <translation>调用深度</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="227"/>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="228"/>
        <source>%1 ms from the capture&apos;s start</source>
        <translation>距采集开始 %1 ms</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="235"/>
        <source>Call stack (innermost first, ● your code):</source>
        <translation>调用栈（最内层在前，● 为你的代码）：</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="269"/>
        <source>Range statistics</source>
        <translation>区间统计</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="269"/>
        <source>span</source>
        <translation>跨度</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="269"/>
        <source>busy union</source>
        <translation>忙碌并集</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="270"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/panels/inspector.cpp" line="270"/>
        <source>kernels</source>
        <translation>kernel 数</translation>
    </message>
</context>
<context>
    <name>LayerTree</name>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="288"/>
        <source>Pass / layer / role / kernel</source>
        <translation>前向 / 层 / 功能 / kernel</translation>
    </message>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="290"/>
        <source>Wall (ms)</source>
        <translation>墙钟时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="292"/>
        <source>Share</source>
        <translation>占比</translation>
    </message>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="294"/>
        <source>Stream</source>
        <translation>流</translation>
    </message>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="98"/>
        <source>%1 ms of its span overlap an earlier structure; the share counts them once</source>
        <translation>其跨度中有 %1 ms 与更早的结构重叠；占比只计一次</translation>
    </message>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="103"/>
        <source>step %1: in no structure</source>
        <translation>step %1：不属于任何结构</translation>
    </message>
    <message>
        <location filename="../ui/layer_tree_model.cpp" line="111"/>
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
    <name>Shortcuts</name>
    <message>
        <location filename="../ui/glossary.cpp" line="241"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="242"/>
        <source>Open a profiling folder</source>
        <translation>打开 profiling 文件夹</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="244"/>
        <source>Compare the open rank with another profile</source>
        <translation>将当前 rank 与另一份 profile 比较</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="246"/>
        <source>Fit the timeline</source>
        <translation>时间线适应窗口</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="247"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="249"/>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="251"/>
        <source>Find a kernel, a host op or a bubble id (/ on the timeline)</source>
        <translation>查找 kernel、host 算子或气泡编号（在时间线上按 /）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="252"/>
        <source>Enter</source>
        <translation>Enter</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="253"/>
        <source>Next match</source>
        <translation>下一个匹配</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="254"/>
        <source>Shift+Enter</source>
        <translation>Shift+Enter</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="255"/>
        <source>Previous match</source>
        <translation>上一个匹配</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="256"/>
        <location filename="../ui/glossary.cpp" line="266"/>
        <source>Esc</source>
        <translation>Esc</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="256"/>
        <source>Close the find bar (in the find bar)</source>
        <translation>关闭查找栏（在查找栏中）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="258"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="259"/>
        <location filename="../ui/glossary.cpp" line="272"/>
        <source>Ctrl+wheel, W / S, + / −</source>
        <translation>Ctrl+滚轮、W / S、+ / −</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="259"/>
        <location filename="../ui/glossary.cpp" line="272"/>
        <source>Zoom (around the mouse)</source>
        <translation>缩放（以鼠标位置为中心）</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="260"/>
        <source>Drag, A / D, Shift+wheel</source>
        <translation>拖动、A / D、Shift+滚轮</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="260"/>
        <location filename="../ui/glossary.cpp" line="273"/>
        <source>Pan</source>
        <translation>平移</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="261"/>
        <location filename="../ui/glossary.cpp" line="275"/>
        <source>Fit the whole capture</source>
        <translation>显示整个采集</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="262"/>
        <source>Next / previous bubble by size</source>
        <translation>按大小跳到下一个 / 上一个气泡</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="264"/>
        <source>Shift+drag</source>
        <translation>Shift+拖动</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="265"/>
        <source>Select a range: its statistics (busy time, kernels, the top kernels) show in the detail pane</source>
        <translation>选择区间：其统计（忙碌时间、kernel 数、耗时最多的 kernel）显示在详情面板中</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="267"/>
        <source>Clear the selection: the kernel or host op, the range and its statistics, the find matches</source>
        <translation>清除选择：所选 kernel 或 host 算子、区间及其统计、查找匹配</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="268"/>
        <source>Click a group header</source>
        <translation>点击分组标题</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="268"/>
        <source>Fold or unfold the group</source>
        <translation>折叠或展开该组</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="270"/>
        <source>Cluster view, Ranks tab</source>
        <translation>集群视图的 Rank 标签页</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="271"/>
        <source>Find a rank number or a collective</source>
        <translation>查找 rank 编号或集合通信</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="273"/>
        <source>Drag, A / D, ← / →, Shift+wheel</source>
        <translation>拖动、A / D、← / →、Shift+滚轮</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="274"/>
        <source>Scroll the ranks</source>
        <translation>上下滚动各 rank</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="276"/>
        <source>Double-click</source>
        <translation>双击</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="276"/>
        <source>Open the rank&apos;s timeline at that instant</source>
        <translation>在该时刻打开该 rank 的时间线</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="281"/>
        <source>Keyboard shortcuts</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../ui/glossary.cpp" line="263"/>
        <source>From the selected kernel to the host op that launched it, and back</source>
        <translation>从选中的 kernel 跳到下发它的主机侧算子，再跳回</translation>
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
        <location filename="../ui/timeline_render.cpp" line="207"/>
        <source>lanes with nothing in view: %1, shown (click to hide them)</source>
        <translation>当前视图中没有内容的泳道：%1 条，已显示（点击隐藏）</translation>
    </message>
    <message>
        <location filename="../ui/timeline_render.cpp" line="208"/>
        <source>lanes with nothing in view: %1 (click to show them)</source>
        <translation>当前视图中没有内容的泳道：%1 条（点击显示）</translation>
    </message>
    <message>
        <location filename="../ui/timeline_render.cpp" line="281"/>
        <source>empty lanes: %1</source>
        <translation>空泳道：%1 条</translation>
    </message>
    <message>
        <location filename="../ui/timeline_render.cpp" line="302"/>
        <source>from depth %1</source>
        <translation>自第 %1 层起</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="21"/>
        <source>attention kernels</source>
        <translation>attention 类 kernel</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="22"/>
        <source>repeating kernel pattern</source>
        <translation>重复出现的 kernel 模式</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="132"/>
        <source>AI Core</source>
        <translation>AI Core</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="134"/>
        <source>AI Vector</source>
        <translation>AI Vector</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="136"/>
        <source>Mix (AIC)</source>
        <translation>Mix (AIC)</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="138"/>
        <source>AI CPU</source>
        <translation>AI CPU</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="140"/>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="142"/>
        <source>Other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="144"/>
        <source>Host op</source>
        <translation>主机算子</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="146"/>
        <source>Host sync / copy</source>
        <translation>主机同步 / 拷贝</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="148"/>
        <source>Host communication</source>
        <translation>主机通信</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="157"/>
        <source>Bubble: prelaunch</source>
        <translation>气泡：prelaunch</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="159"/>
        <source>Bubble: tail</source>
        <translation>气泡：tail</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="161"/>
        <source>Bubble: global</source>
        <translation>气泡：global</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="165"/>
        <source>Bubble: step-internal</source>
        <translation>气泡：step 内</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="323"/>
        <source>Steps</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="331"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="216"/>
        <source>Device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="217"/>
        <source>union of all streams</source>
        <translation>所有流的并集</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="251"/>
        <source>Stream %1</source>
        <translation>流 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="274"/>
        <source>Thread %1</source>
        <translation>线程 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_layout.cpp" line="109"/>
        <source>Device</source>
        <translation>设备侧</translation>
    </message>
    <message>
        <location filename="../ui/timeline_layout.cpp" line="110"/>
        <location filename="../ui/timeline_render.cpp" line="60"/>
        <source>Host</source>
        <translation>主机侧</translation>
    </message>
    <message>
        <location filename="../ui/timeline_layout.cpp" line="111"/>
        <source>Bubbles</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/timeline_render.cpp" line="61"/>
        <source>HCCL</source>
        <translation>HCCL</translation>
    </message>
    <message>
        <location filename="../ui/timeline_render.cpp" line="62"/>
        <source>Overlap Analysis</source>
        <translation>重叠分析</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="255"/>
        <source>Stream unknown</source>
        <translation>流（未知编号）</translation>
    </message>
    <message>
        <location filename="../ui/timeline_data.cpp" line="256"/>
        <source>%1 (stream unknown)</source>
        <translation>%1（流编号未知）</translation>
    </message>
</context>
<context>
    <name>bs::ui::BubbleTableModel</name>
    <message>
        <location filename="../ui/panel_models.cpp" line="61"/>
        <source> (edge)</source>
        <translation>（采集边界）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="93"/>
        <source>Bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="95"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="97"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="99"/>
        <source>Start (ms)</source>
        <translation>开始 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="101"/>
        <source>Duration (ms)</source>
        <translation>时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="103"/>
        <source>Candidate causes</source>
        <translation>候选原因</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="105"/>
        <source>Host coverage</source>
        <translation>Host 覆盖率</translation>
    </message>
</context>
<context>
    <name>bs::ui::ChartsPanel</name>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="246"/>
        <source>Shares of each step (100 %): one long step does not hide the bubbles of the others</source>
        <translation>按每个 step 的占比（100 %）：一个很长的 step 不会掩盖其他 step 的气泡</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="247"/>
        <source>Idle time only (ms): prelaunch, internal bubbles and tail without the busy time</source>
        <translation>仅空闲时间（ms）：prelaunch、内部气泡和 tail，不含忙碌时间</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="136"/>
        <source>Where each step&apos;s time goes (% of the step)</source>
        <translation>每个 step 的时间去向（占 step 的 %）</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="137"/>
        <source>Device idle per step (ms)</source>
        <translation>每个 step 的 device 空闲（ms）</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="137"/>
        <source>Per-step device time (ms)</source>
        <translation>每个 step 的设备时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="140"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="140"/>
        <source>prelaunch</source>
        <translation>prelaunch（启动前空闲）</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="140"/>
        <source>internal bubbles</source>
        <translation>内部气泡</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="140"/>
        <source>tail</source>
        <translation>tail（尾部空闲）</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="180"/>
        <source>step (click a bar to see it on the timeline)</source>
        <translation>step（点击柱形在时间线上查看）</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="184"/>
        <source>% of the step</source>
        <translation>占 step 的 %</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="184"/>
        <source>ms</source>
        <translation>ms</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="198"/>
        <source>step %1 — %2: %3 ms of %4 ms (%5 %)</source>
        <translation>step %1 — %2：%3 ms / %4 ms（%5 %）</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="210"/>
        <source>Top ops by total kernel time (ms)</source>
        <translation>总 kernel 时间最高的算子 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panels/charts_panel.cpp" line="212"/>
        <source>total</source>
        <translation>总计</translation>
    </message>
</context>
<context>
    <name>bs::ui::ClusterBars</name>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="106"/>
        <source>Communication wait (inside communication, not stacked)</source>
        <translation>通信等待（包含在通信时间内，不参与堆叠）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="169"/>
        <source>Not analysed: %1</source>
        <translation>未分析：%1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="170"/>
        <source>Summed over the steps compared (%1):</source>
        <translation>参与比较的 step 之和（%1 个）：</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="204"/>
        <source>ms, summed over the steps compared (%1)</source>
        <translation>ms，参与比较的 step 之和（%1 个）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="178"/>
        <source>no communication.json</source>
        <translation>无 communication.json</translation>
    </message>
    <message>
        <location filename="../ui/cluster_bars.cpp" line="228"/>
        <source>not analysed</source>
        <translation>未分析</translation>
    </message>
</context>
<context>
    <name>bs::ui::ClusterHeatmap</name>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="128"/>
        <location filename="../ui/cluster_heatmap.cpp" line="305"/>
        <source>median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="190"/>
        <source>%1: not measured for this rank</source>
        <translation>%1：该 rank 无此数据</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="191"/>
        <source>Not analysed: %1</source>
        <translation>未分析：%1</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="194"/>
        <source>%1: &lt;b&gt;%2 ms&lt;/b&gt;</source>
        <translation>%1：&lt;b&gt;%2 ms&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="196"/>
        <source>Step median over the ranks: %1 ms</source>
        <translation>该 step 各 rank 的中位数：%1 ms</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="197"/>
        <source>Deviation: %1 ms</source>
        <translation>偏差：%1 ms</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="201"/>
        <source>Named slow in this step: %1.</source>
        <translation>在此 step 中被判定为慢：%1。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_heatmap.cpp" line="286"/>
        <source>Outlined: the rank is named slow in that step.</source>
        <translation>带边框：该 rank 在此 step 被判定为慢 rank。</translation>
    </message>
</context>
<context>
    <name>bs::ui::ClusterJob</name>
    <message>
        <location filename="../ui/cluster_job.cpp" line="76"/>
        <source>No summary in %1 could be merged.</source>
        <translation>%1 中没有可合并的摘要。</translation>
    </message>
</context>
<context>
    <name>bs::ui::ClusterView</name>
    <message>
        <location filename="../ui/cluster_view.cpp" line="75"/>
        <location filename="../ui/cluster_view.cpp" line="427"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="77"/>
        <location filename="../ui/cluster_view.cpp" line="428"/>
        <source>Open rank timeline</source>
        <translation>打开 rank 时间线</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="78"/>
        <location filename="../ui/cluster_view.cpp" line="429"/>
        <source>Opens the selected rank in the timeline (or double-click a rank).</source>
        <translation>在时间线中打开所选 rank（或双击某个 rank）。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="79"/>
        <location filename="../ui/cluster_view.cpp" line="430"/>
        <source>Compare with the median rank</source>
        <translation>与中位 rank 比较</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="80"/>
        <location filename="../ui/cluster_view.cpp" line="431"/>
        <source>Shows the selected rank&apos;s step metrics beside the cluster median.</source>
        <translation>将所选 rank 的 step 指标与集群中位数并列显示。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="93"/>
        <location filename="../ui/cluster_view.cpp" line="432"/>
        <source>Overview</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="95"/>
        <location filename="../ui/cluster_view.cpp" line="433"/>
        <source>Ranks</source>
        <translation>各 Rank</translation>
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
        <location filename="../ui/cluster_view.cpp" line="147"/>
        <location filename="../ui/cluster_view.cpp" line="435"/>
        <source>Rank × step</source>
        <translation>Rank × Step</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="155"/>
        <location filename="../ui/cluster_view.cpp" line="441"/>
        <source>Metric:</source>
        <translation>指标：</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="174"/>
        <location filename="../ui/cluster_view.cpp" line="436"/>
        <source>Per rank: where the step time goes</source>
        <translation>各 rank：step 时间的去向</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="182"/>
        <location filename="../ui/cluster_view.cpp" line="437"/>
        <source>Slow ranks</source>
        <translation>慢 rank</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="205"/>
        <location filename="../ui/cluster_view.cpp" line="438"/>
        <source>Collectives matched across ranks (latest arrival first)</source>
        <translation>跨 rank 匹配的集合通信（按最晚到达排序）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="241"/>
        <source>Looking for ranks in %1…</source>
        <translation>正在 %1 中查找 rank…</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="272"/>
        <source>Cluster analysis cancelled.</source>
        <translation>集群分析已取消。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="277"/>
        <source>One rank: no cluster to compare.</source>
        <translation>只有一个 rank：没有可比较的集群。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="310"/>
        <source>Ranks analysed: %1 of %2. Steps compared: %3. Collectives matched across ranks: %4.</source>
        <translation>已分析 rank：%1 / %2。参与比较的 step：%3。跨 rank 匹配的集合通信：%4。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="316"/>
        <location filename="../ui/cluster_view.cpp" line="365"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="321"/>
        <source>Findings</source>
        <translation>发现</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="329"/>
        <source>%1: %2 figures compared with ours, %3 differ.</source>
        <translation>%1：与我们的结果比较了 %2 个数值，%3 个不一致。</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="368"/>
        <source>Why it arrives %1 ms after the step&apos;s median rank</source>
        <translation>为何比该 step 的中位 rank 晚到 %1 ms</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="369"/>
        <source>step start</source>
        <translation>step 开始</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="370"/>
        <source>prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="371"/>
        <source>computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="372"/>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="373"/>
        <source>exposed communication</source>
        <translation>未掩盖通信</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="374"/>
        <source>rest</source>
        <translation>其余</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="388"/>
        <source>lateness (the sum)</source>
        <translation>迟到（总和）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="393"/>
        <source>Ops that took longer</source>
        <translation>耗时更长的算子</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="393"/>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="393"/>
        <source>Calls per step (median rank → this rank)</source>
        <translation>每 step 调用次数（中位 rank → 此 rank）</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="394"/>
        <source>Δ (ms)</source>
        <translation>Δ (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="407"/>
        <source>Windows the median rank lacks or has shorter</source>
        <translation>中位 rank 没有或更短的窗口</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="407"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="407"/>
        <source>Window</source>
        <translation>窗口</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="408"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="408"/>
        <source>Duration (ms)</source>
        <translation>时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="408"/>
        <source>Median rank (ms)</source>
        <translation>中位 rank (ms)</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="408"/>
        <source>Labels</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="408"/>
        <source>User line</source>
        <translation>用户代码行</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="416"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="461"/>
        <source>Open %1&apos;s timeline</source>
        <translation>打开 %1 的时间线</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="463"/>
        <source>Compare %1 with the median rank</source>
        <translation>将 %1 与中位 rank 比较</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="473"/>
        <source>%1 beside the cluster median</source>
        <translation>%1 与集群中位数对比</translation>
    </message>
    <message>
        <location filename="../ui/cluster_view.cpp" line="475"/>
        <source>%1: each step&apos;s figures beside the median over the analysed ranks, and the median rank&apos;s own (the rank whose total service is the median).</source>
        <translation>%1：每个 step 的数值与所有已分析 rank 的中位数并列，并附中位 rank（总服务时长处于中位的 rank）自身的数值。</translation>
    </message>
</context>
<context>
    <name>bs::ui::CompareView</name>
    <message>
        <location filename="../ui/compare_view.cpp" line="155"/>
        <location filename="../ui/compare_view.cpp" line="344"/>
        <source>File ▸ Compare with… compares the open rank (base) with another profile (new).</source>
        <translation>文件 ▸ 与…比较：将当前打开的 rank（基线）与另一份 profile（新）比较。</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="161"/>
        <location filename="../ui/compare_view.cpp" line="321"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="322"/>
        <source>Dominant step group</source>
        <translation>主导 step 组</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="322"/>
        <source>Base avg</source>
        <translation>基线均值</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="322"/>
        <source>New avg</source>
        <translation>新均值</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="322"/>
        <source>Δ avg</source>
        <translation>Δ 均值</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="323"/>
        <location filename="../ui/compare_view.cpp" line="327"/>
        <location filename="../ui/compare_view.cpp" line="330"/>
        <source>Δ %</source>
        <translation>Δ %</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="323"/>
        <source>Base P50</source>
        <translation>基线 P50</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="323"/>
        <source>New P50</source>
        <translation>新 P50</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="183"/>
        <location filename="../ui/compare_view.cpp" line="331"/>
        <source>Steps</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="324"/>
        <source>Filter ops by name, task type or status (changed, new, removed, unchanged)</source>
        <translation>按名称、任务类型或状态过滤算子（已变化、新增、已移除、未变化）</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="325"/>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="325"/>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="325"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="325"/>
        <source>Calls base</source>
        <translation>基线调用次数</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="325"/>
        <source>Calls new</source>
        <translation>新调用次数</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="326"/>
        <source>Total base (ms)</source>
        <translation>基线总时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="326"/>
        <source>Total new (ms)</source>
        <translation>新总时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="326"/>
        <source>Δ total (ms)</source>
        <translation>Δ 总时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="327"/>
        <source>Avg base (µs)</source>
        <translation>基线平均 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="327"/>
        <source>Avg new (µs)</source>
        <translation>新平均 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="207"/>
        <location filename="../ui/compare_view.cpp" line="332"/>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="328"/>
        <source>Fate</source>
        <translation>去向</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="328"/>
        <source>Base</source>
        <translation>基线</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="328"/>
        <source>New</source>
        <translation>新</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="328"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="328"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="329"/>
        <source>Between (before → after, #)</source>
        <translation>位置（前 → 后，第几次）</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="329"/>
        <source>Base (ms)</source>
        <translation>基线 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="330"/>
        <source>New (ms)</source>
        <translation>新 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="330"/>
        <source>Δ (ms)</source>
        <translation>Δ (ms)</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="219"/>
        <location filename="../ui/compare_view.cpp" line="333"/>
        <source>Bubbles</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="261"/>
        <source>Comparing with %1 …</source>
        <translation>正在与 %1 比较…</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="313"/>
        <source>Memory ran out while loading %1 for the comparison.</source>
        <translation>为比较加载 %1 时内存不足。</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="351"/>
        <source>Comparison cancelled.</source>
        <translation>比较已取消。</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="356"/>
        <source>Not compared: %1</source>
        <translation>未比较：%1</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="369"/>
        <source>Base: %1 — new: %2</source>
        <translation>基线：%1 — 新：%2</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="372"/>
        <source>Not the same scope</source>
        <translation>采集范围不同</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="377"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="382"/>
        <source>The base&apos;s top bubbles</source>
        <translation>基线的 Top 气泡</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="407"/>
        <source>not known on both sides</source>
        <translation>两侧并非都已知</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="509"/>
        <source>&lt;b&gt;Base&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;基线&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="509"/>
        <source>&lt;b&gt;New&lt;/b&gt; %1</source>
        <translation>&lt;b&gt;新&lt;/b&gt; %1</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="551"/>
        <source>%1 — %2: no window here; aligned on the kernel after it (%3)</source>
        <translation>%1 — %2：此处无窗口；按其后的 kernel 对齐（%3）</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="556"/>
        <source>%1 — %2: the window&apos;s place measured from the step&apos;s end (this step is %3 ms, shorter than the window&apos;s offset in the other)</source>
        <translation>%1 — %2：窗口位置从 step 结尾起算（此 step 为 %3 ms，短于另一侧窗口的偏移）</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="559"/>
        <source>%1 — %2, from %3 ms after the step&apos;s start</source>
        <translation>%1 — %2，从 step 开始后 %3 ms 起</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="111"/>
        <source>removed</source>
        <comment>a bubble window&apos;s fate</comment>
        <translation>已消失</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="112"/>
        <source>shrunk</source>
        <comment>a bubble window&apos;s fate</comment>
        <translation>缩小</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="113"/>
        <source>grew</source>
        <comment>a bubble window&apos;s fate</comment>
        <translation>增大</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="114"/>
        <source>new</source>
        <comment>a bubble window&apos;s fate</comment>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="115"/>
        <source>unchanged</source>
        <comment>a bubble window&apos;s fate</comment>
        <translation>未变化</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="128"/>
        <source>changed</source>
        <comment>an op&apos;s status</comment>
        <translation>已变化</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="129"/>
        <source>unchanged</source>
        <comment>an op&apos;s status</comment>
        <translation>未变化</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="130"/>
        <source>new</source>
        <comment>an op&apos;s status</comment>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../ui/compare_view.cpp" line="131"/>
        <source>removed</source>
        <comment>an op&apos;s status</comment>
        <translation>已移除</translation>
    </message>
</context>
<context>
    <name>bs::ui::FindBar</name>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="208"/>
        <source>Find a kernel, a host op or a bubble id (b0001)</source>
        <translation>查找 kernel、host 算子或气泡编号（b0001）</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="209"/>
        <source>Previous match (Shift+F3)</source>
        <translation>上一个匹配（Shift+F3）</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="210"/>
        <source>Next match (Enter, F3)</source>
        <translation>下一个匹配（Enter、F3）</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="211"/>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="212"/>
        <source>The names matched, with how often; click one to find exactly it.</source>
        <translation>匹配到的名称及次数；点击一个以精确查找它。</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="213"/>
        <source>Kind</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="213"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="213"/>
        <source>Time (ms)</source>
        <translation>时间 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="213"/>
        <source>Lane</source>
        <translation>泳道</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="214"/>
        <source>Every match in time order; choose one to go to it on the timeline.</source>
        <translation>按时间排列的全部匹配项；选择一项即在时间线上跳转到它。</translation>
    </message>
    <message>
        <location filename="../ui/panels/find_bar.cpp" line="149"/>
        <source>%1 kernels · %2 host ops · %3 bubbles</source>
        <translation>%1 个 kernel · %2 个 host 算子 · %3 个气泡</translation>
    </message>
</context>
<context>
    <name>bs::ui::HealthPanel</name>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="17"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="19"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="23"/>
        <source>info</source>
        <translation>提示</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="35"/>
        <source>No finding: the collection looks complete.</source>
        <translation>无发现：采集数据看起来完整。</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="46"/>
        <source>Effect:</source>
        <translation>影响：</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="47"/>
        <source>Fix:</source>
        <translation>修复：</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="56"/>
        <source>Health</source>
        <translation>采集健康</translation>
    </message>
    <message>
        <location filename="../ui/panels/health_panel.cpp" line="56"/>
        <source>Health (%1)</source>
        <translation>采集健康（%1）</translation>
    </message>
</context>
<context>
    <name>bs::ui::LoadJob</name>
    <message>
        <location filename="../ui/load_job.cpp" line="133"/>
        <source>Showing this profile needs about %1 MiB more for the timeline and its panels, but only %2 MiB of memory are left. Nothing was shown. Free memory, or analyse it without the window: bubblescope analyze %3</source>
        <translation>显示此性能数据还需要约 %1 MiB 内存用于时间线及各面板，但仅剩 %2 MiB。未显示任何内容。请释放内存，或不通过窗口进行分析：bubblescope analyze %3</translation>
    </message>
</context>
<context>
    <name>bs::ui::MainWindow</name>
    <message>
        <location filename="../ui/load_flow.cpp" line="214"/>
        <location filename="../ui/main_window.cpp" line="68"/>
        <source>BubbleScope</source>
        <translation>BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="121"/>
        <location filename="../ui/main_window.cpp" line="398"/>
        <source>&lt;b&gt;Sample profile&lt;/b&gt; — a generated 8-layer MoE capture with every planted anomaly. Open your own profiling folder with File ▸ Open Folder… (Ctrl+O) or drop it here.</source>
        <translation>&lt;b&gt;示例 profile&lt;/b&gt; —— 生成的 8 层 MoE 采集数据，包含全部预置异常。请通过 文件 ▸ 打开文件夹…（Ctrl+O）打开自己的 profiling 目录，或将目录拖放到此处。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="131"/>
        <location filename="../ui/main_window.cpp" line="400"/>
        <source>Rank:</source>
        <translation>Rank：</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="133"/>
        <location filename="../ui/main_window.cpp" line="401"/>
        <source>Rank to analyse</source>
        <translation>要分析的 rank</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="156"/>
        <location filename="../ui/main_window.cpp" line="403"/>
        <source>Summary</source>
        <translation>概览</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="221"/>
        <location filename="../ui/main_window.cpp" line="170"/>
        <source>Bubbles</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="176"/>
        <location filename="../ui/main_window.cpp" line="404"/>
        <source>Layers</source>
        <translation>层</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="179"/>
        <location filename="../ui/main_window.cpp" line="405"/>
        <source>Ops</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="182"/>
        <location filename="../ui/main_window.cpp" line="406"/>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="222"/>
        <location filename="../ui/main_window.cpp" line="184"/>
        <source>Health</source>
        <translation>采集健康</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="189"/>
        <location filename="../ui/main_window.cpp" line="407"/>
        <source>Text report</source>
        <translation>文本报告</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="317"/>
        <location filename="../ui/main_window.cpp" line="76"/>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="81"/>
        <location filename="../ui/main_window.cpp" line="402"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="62"/>
        <location filename="../ui/load_flow.cpp" line="88"/>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="625"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="626"/>
        <source>&amp;Open Folder…</source>
        <translation>打开文件夹(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="627"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="636"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="637"/>
        <source>Anomaly &amp;JSON…</source>
        <translation>异常 &amp;JSON…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="638"/>
        <source>Anomaly &amp;report (Markdown)…</source>
        <translation>异常报告(&amp;R)（Markdown）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="640"/>
        <source>&amp;Architecture report (Markdown)…</source>
        <translation>模型架构报告(&amp;A)（Markdown）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="665"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="667"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="668"/>
        <source>&amp;Fit timeline</source>
        <translation>时间线适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="688"/>
        <source>Show &amp;host lanes</source>
        <translation>显示 Host 泳道(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="694"/>
        <source>Show &amp;Overlap Analysis lanes</source>
        <translation>显示 Overlap Analysis 泳道(&amp;O)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="699"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="701"/>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="716"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="718"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="719"/>
        <source>&amp;About BubbleScope</source>
        <translation>关于 BubbleScope(&amp;A)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="720"/>
        <source>About BubbleScope</source>
        <translation>关于 BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="721"/>
        <source>BubbleScope %1 — device-idle bubble analysis for Ascend NPU profiles.</source>
        <translation>BubbleScope %1 —— 昇腾 NPU profiling 数据的设备空闲气泡分析工具。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="464"/>
        <source>Open Profiling Folder</source>
        <translation>打开 profiling 文件夹</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="110"/>
        <source>Loading cancelled.</source>
        <translation>已取消加载。</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="197"/>
        <location filename="../ui/load_flow.cpp" line="317"/>
        <source>Nothing loaded.</source>
        <translation>未加载任何数据。</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="216"/>
        <source>Sample profile — BubbleScope</source>
        <translation>示例 profile — BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="217"/>
        <source>%1 — BubbleScope</source>
        <translation>%1 — BubbleScope</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="141"/>
        <location filename="../ui/load_flow.cpp" line="348"/>
        <source>Loaded %1</source>
        <translation>已加载 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="196"/>
        <location filename="../ui/main_window.cpp" line="408"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="197"/>
        <location filename="../ui/main_window.cpp" line="409"/>
        <source>Rank timeline</source>
        <translation>Rank 时间线</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="199"/>
        <location filename="../ui/main_window.cpp" line="410"/>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="225"/>
        <source>Compared: %1</source>
        <translation>已比较：%1</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="84"/>
        <source>Analysing…</source>
        <translation>正在分析…</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="86"/>
        <source>Writing the text report…</source>
        <translation>正在生成文本报告…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="331"/>
        <source>%1: %2 ms</source>
        <translation>%1：%2 ms</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="569"/>
        <source>kernel</source>
        <translation>算子核</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="569"/>
        <source>host op</source>
        <translation>主机算子</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="569"/>
        <source>bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="628"/>
        <source>&amp;Compare with…</source>
        <translation>与…比较(&amp;C)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="629"/>
        <source>Compare the open rank (base) with…</source>
        <translation>将当前 rank（基线）与…比较</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="633"/>
        <source>Before / after: compares the open rank with another profile (also: drop a folder with Shift held).</source>
        <translation>前后对比：将当前 rank 与另一份 profile 比较（也可按住 Shift 拖入文件夹）。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="642"/>
        <source>Timeline &amp;image (PNG or SVG)…</source>
        <translation>时间线图片(&amp;I)（PNG 或 SVG）…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="643"/>
        <source>Export the timeline as it is shown</source>
        <translation>按当前显示导出时间线</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="644"/>
        <source>PNG (*.png);;SVG (*.svg)</source>
        <translation>PNG (*.png);;SVG (*.svg)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="652"/>
        <source>Report with bubble &amp;pictures…</source>
        <translation>带气泡截图的报告(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="653"/>
        <source>Folder for the report and its pictures</source>
        <translation>报告及其图片的文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="659"/>
        <source>Exported the report with its pictures to %1</source>
        <translation>已将报告及其图片导出到 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="662"/>
        <source>Export all to &amp;folder…</source>
        <translation>全部导出到文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="670"/>
        <source>Fin&amp;d…</source>
        <translation>查找(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="675"/>
        <source>Find &amp;next</source>
        <translation>查找下一个(&amp;N)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="676"/>
        <source>Find &amp;previous</source>
        <translation>查找上一个(&amp;P)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="677"/>
        <source>Show the le&amp;gend</source>
        <translation>显示图例(&amp;G)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="683"/>
        <source>Show all launch flo&amp;ws in view</source>
        <translation>显示视图内所有下发连线(&amp;W)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="717"/>
        <source>&amp;Glossary</source>
        <translation>术语表(&amp;G)</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="453"/>
        <source>Open a profile first: it is the base of the comparison.</source>
        <translation>请先打开一份 profile：它是比较的基线。</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="459"/>
        <source>Comparing %1 with %2…</source>
        <translation>正在比较 %1 与 %2…</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="488"/>
        <source>Merging the rank summaries in %1…</source>
        <translation>正在合并 %1 中的 rank 摘要…</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="261"/>
        <source>Building the timeline…</source>
        <translation>正在构建时间线…</translation>
    </message>
    <message>
        <location filename="../ui/load_flow.cpp" line="220"/>
        <source>Bubbles (%1)</source>
        <translation>气泡（%1）</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="621"/>
        <source>Range: %1 ms, busy %2 ms, %3 kernels</source>
        <translation>区间：%1 ms，忙碌 %2 ms，%3 个 kernel</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="42"/>
        <location filename="../ui/main_window_exports.cpp" line="60"/>
        <location filename="../ui/main_window_exports.cpp" line="69"/>
        <source>Nothing is loaded.</source>
        <translation>尚未加载数据。</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="75"/>
        <source>The folder %1/bubbles could not be made.</source>
        <translation>无法创建文件夹 %1/bubbles。</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="98"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="98"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="99"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="648"/>
        <location filename="../ui/main_window.cpp" line="657"/>
        <location filename="../ui/main_window_exports.cpp" line="103"/>
        <location filename="../ui/main_window_exports.cpp" line="117"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="648"/>
        <location filename="../ui/main_window_exports.cpp" line="104"/>
        <location filename="../ui/main_window_exports.cpp" line="118"/>
        <source>The file was not written; nothing was changed.

%1</source>
        <translation>文件未写入，未做任何修改。

%1</translation>
    </message>
    <message>
        <location filename="../ui/main_window.cpp" line="650"/>
        <location filename="../ui/main_window_exports.cpp" line="106"/>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="110"/>
        <source>Export all to folder</source>
        <translation>全部导出到文件夹</translation>
    </message>
    <message>
        <location filename="../ui/main_window_exports.cpp" line="123"/>
        <source>Exported %1 files to %2</source>
        <translation>已导出 %1 个文件到 %2</translation>
    </message>
</context>
<context>
    <name>bs::ui::OpsGroupModel</name>
    <message>
        <location filename="../ui/panel_models.cpp" line="487"/>
        <source>Op type %1: %2 instances (a click on its name shows or hides them)</source>
        <translation>算子类型 %1：%2 个实例（单击其名称可显示或隐藏）</translation>
    </message>
</context>
<context>
    <name>bs::ui::OpsPanel</name>
    <message>
        <location filename="../ui/panels/ops_panel.cpp" line="21"/>
        <location filename="../ui/panels/ops_panel.cpp" line="96"/>
        <source>Filter ops by name…</source>
        <translation>按名称筛选算子…</translation>
    </message>
</context>
<context>
    <name>bs::ui::OpsTableModel</name>
    <message>
        <location filename="../ui/panel_models.cpp" line="159"/>
        <location filename="../ui/panel_models.cpp" line="175"/>
        <source>wait anchor</source>
        <translation>等待锚点</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="178"/>
        <source>an AI CPU op (class as the analysis names it)</source>
        <translation>AI CPU 算子（分类按分析结果命名）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="193"/>
        <source>Rank by average total cost (duration + wait) per call: 1 is the costliest call.</source>
        <translation>按每次调用的平均总开销（耗时 + 等待）排名：1 为开销最大。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="195"/>
        <source>Rank by total duration over all calls: 1 takes the most device time.</source>
        <translation>按所有调用的总耗时排名：1 占用 device 时间最多。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="197"/>
        <source>Average time a call waited before it ran (kernel_details&apos; Wait): not its own work.</source>
        <translation>每次调用运行前的平均等待时间（kernel_details 的 Wait）：不是它自己的工作。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="199"/>
        <source>Average duration + wait per call.</source>
        <translation>每次调用的平均耗时 + 等待。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="201"/>
        <source>Wait / (duration + wait) over all calls.</source>
        <translation>所有调用的 等待 / (耗时 + 等待)。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="203"/>
        <source>Total duration over all calls (device time the op takes; the default order).</source>
        <translation>所有调用的总耗时（该算子占用的 device 时间；默认排序）。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="205"/>
        <source>Why the op&apos;s ranking may mislead (hover a cell for each flag&apos;s meaning).</source>
        <translation>该算子排名可能误导的原因（悬停单元格查看各标记含义）。</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="215"/>
        <source>Rank (avg cost)</source>
        <translation>排名（平均开销）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="217"/>
        <source>Rank (total)</source>
        <translation>排名（总时长）</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="219"/>
        <source>Op</source>
        <translation>算子</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="221"/>
        <source>Task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="223"/>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="225"/>
        <source>Duration avg (µs)</source>
        <translation>平均时长 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="227"/>
        <source>Wait avg (µs)</source>
        <translation>平均等待 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="229"/>
        <source>Total cost avg (µs)</source>
        <translation>平均总开销 (µs)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="231"/>
        <source>Wait ratio</source>
        <translation>等待占比</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="233"/>
        <source>Total (ms)</source>
        <translation>总时长 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="235"/>
        <source>Flags</source>
        <translation>标记</translation>
    </message>
    <message>
        <location filename="../ui/panel_models.cpp" line="237"/>
        <source>PMU verdict</source>
        <translation>PMU 判定</translation>
    </message>
</context>
<context>
    <name>bs::ui::RanksTab</name>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="107"/>
        <location filename="../ui/ranks_tab.cpp" line="139"/>
        <source>all steps</source>
        <translation>全部 step</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="127"/>
        <source>No rank or collective matches “%1”.</source>
        <translation>没有与“%1”匹配的 rank 或集合通信。</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="132"/>
        <source>Raw clocks</source>
        <translation>原始时钟</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="134"/>
        <source>Each rank on its own clock, as it recorded; unchecked: every rank on the aligned clock (its clock offset from the collectives&apos; ends taken off).</source>
        <translation>勾选：每个 rank 使用其自身记录的时钟；不勾选：所有 rank 使用对齐时钟（减去由集合通信结束时刻估计的时钟偏移）。</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="136"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="137"/>
        <source>Shows the whole capture (F).</source>
        <translation>显示整个采集（F）。</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="138"/>
        <source>Step:</source>
        <translation>Step：</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="143"/>
        <source>A rank number selects that rank; part of a collective&apos;s name shows it across the ranks (Enter again: the next match).</source>
        <translation>输入 rank 编号选中该 rank；输入集合通信名称的一部分则跨 rank 显示它（再按 Enter：下一个匹配）。</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="145"/>
        <source>Rank or collective (Ctrl+F)</source>
        <translation>Rank 或集合通信（Ctrl+F）</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="151"/>
        <source>Each collective marks its %1 earliest and %1 latest ranks.</source>
        <translation>每个集合通信标出最早的 %1 个和最晚的 %1 个 rank。</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="163"/>
        <source>Ctrl+wheel, +/− zoom · drag, arrows pan · double-click opens a rank</source>
        <translation>Ctrl+滚轮、+/− 缩放 · 拖动、方向键平移 · 双击打开 rank</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="156"/>
        <source>device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="156"/>
        <source>HCCL</source>
        <translation>HCCL</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="157"/>
        <source>step</source>
        <translation>step</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="158"/>
        <source>arrival at a collective (grey: last arriver undetermined)</source>
        <translation>到达集合通信（灰色：最后到达者无法确定）</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="159"/>
        <source>the last arriver</source>
        <translation>最后到达者</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="160"/>
        <source>wait for the last arriver</source>
        <translation>等待最后到达者</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="160"/>
        <source>slow rank</source>
        <translation>慢 rank</translation>
    </message>
    <message>
        <location filename="../ui/ranks_tab.cpp" line="166"/>
        <source>The ranks&apos; timelines are not available: this cluster was merged from rank summaries, which keep no device lanes. Open the parent folder of the ranks to see them.</source>
        <translation>无法显示各 rank 的时间线：此集群由 rank 摘要合并而来，摘要不保存设备泳道。请打开各 rank 所在的父文件夹查看。</translation>
    </message>
</context>
<context>
    <name>bs::ui::RanksTimeline</name>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="340"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="353"/>
        <source>Slow in %1 of %2 steps.</source>
        <translation>%2 个 step 中慢 %1 个。</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="357"/>
        <source>Clock offset: %1 µs</source>
        <translation>时钟偏移：%1 µs</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="366"/>
        <source>start %1, duration %2</source>
        <translation>开始 %1，时长 %2</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="372"/>
        <source>Device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="375"/>
        <source>Communication</source>
        <translation>通信</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="391"/>
        <source>arrives last, %1 after the earliest rank</source>
        <translation>最后到达，比最早的 rank 晚 %1</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline.cpp" line="392"/>
        <source>waits %1 for the last arriver</source>
        <translation>等待最后到达者 %1</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline_paint.cpp" line="186"/>
        <source>%1 · slow</source>
        <translation>%1 · 慢</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline_paint.cpp" line="187"/>
        <source>%1 (no lanes)</source>
        <translation>%1（无泳道）</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline_paint.cpp" line="225"/>
        <source>Raw clocks</source>
        <translation>原始时钟</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline_paint.cpp" line="225"/>
        <source>Aligned clock</source>
        <translation>对齐时钟</translation>
    </message>
    <message>
        <location filename="../ui/ranks_timeline_paint.cpp" line="202"/>
        <source>View %1</source>
        <translation>视图 %1</translation>
    </message>
</context>
<context>
    <name>bs::ui::SummaryPanel</name>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="72"/>
        <source>Are there significant bubbles?</source>
        <translation>是否存在显著气泡？</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="72"/>
        <source>Which step group holds them?</source>
        <translation>气泡位于哪个 step 组？</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="73"/>
        <source>Prelaunch, tail, internal or inter-step?</source>
        <translation>是下发前、尾部、内部还是 step 之间的空闲？</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="74"/>
        <source>Is there a host-side risk?</source>
        <translation>是否存在 Host 侧风险？</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="74"/>
        <source>Is the evidence enough?</source>
        <translation>证据是否充分？</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="75"/>
        <source>Bubble-first summary</source>
        <translation>气泡优先摘要</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="82"/>
        <source>Data errors: %1. They lower the confidence (now %2); see the data-quality findings in the report.</source>
        <translation>数据错误：%1。这些错误降低了置信度（当前为 %2）；详见报告中的数据质量发现。</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="100"/>
        <source>What to do next</source>
        <translation>下一步做什么</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="100"/>
        <source>Priority</source>
        <translation>优先级</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="100"/>
        <source>Action</source>
        <translation>措施</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="100"/>
        <source>Target</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="100"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="101"/>
        <source>Expected gain</source>
        <translation>预期收益</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="131"/>
        <source>Steps (ms)</source>
        <translation>Step 指标 (ms)</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="132"/>
        <location filename="../ui/panels/summary_panel.cpp" line="161"/>
        <source>Step</source>
        <translation>Step</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="132"/>
        <source>Group</source>
        <translation>组</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="132"/>
        <source>Service</source>
        <translation>服务时长</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="132"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="132"/>
        <source>Underfeed</source>
        <translation>供给不足时长</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="132"/>
        <source>Prelaunch</source>
        <translation>下发前空闲</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="133"/>
        <source>Internal</source>
        <translation>内部气泡</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="133"/>
        <source>Largest</source>
        <translation>最大气泡</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="133"/>
        <source>Tail</source>
        <translation>尾部空闲</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="133"/>
        <source>Bubbles</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="155"/>
        <source>… %1 more steps: every step is in the Charts tab and the Text report tab.</source>
        <translation>… 另有 %1 个 step 未列出：所有 step 见“图表”和“文本报告”标签页。</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="160"/>
        <source>Profiler cross-check (%1, µs)</source>
        <translation>与 profiler 结果交叉核对（%1，µs）</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="161"/>
        <source>Figure</source>
        <translation>指标</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="161"/>
        <source>Ours</source>
        <translation>本工具</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="161"/>
        <source>Profiler</source>
        <translation>Profiler</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="178"/>
        <source>mismatch</source>
        <translation>不一致</translation>
    </message>
    <message>
        <location filename="../ui/panels/summary_panel.cpp" line="183"/>
        <source>… %1 more rows: every row is in the Text report tab and the exported JSON.</source>
        <translation>… 另有 %1 行未列出：所有行见“文本报告”标签页和导出的 JSON。</translation>
    </message>
</context>
<context>
    <name>bs::ui::TimelineWidget</name>
    <message>
        <location filename="../ui/timeline_input.cpp" line="77"/>
        <source>L: go to the host op and back</source>
        <translation>按 L：跳到启动它的主机算子，再按返回</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="26"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location filename="../ui/timeline_widget.cpp" line="759"/>
        <source>No profile loaded</source>
        <translation>未加载 profile</translation>
    </message>
    <message>
        <location filename="../ui/timeline_render.cpp" line="340"/>
        <source>View %1</source>
        <translation>视图 %1</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="102"/>
        <source>start %1, duration %2</source>
        <translation>开始 %1，时长 %2</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="65"/>
        <source>task type</source>
        <translation>任务类型</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="66"/>
        <source>wait</source>
        <translation>等待</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="71"/>
        <source>unknown host event</source>
        <translation>未知 Host 事件</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="73"/>
        <source>launched by</source>
        <translation>下发自</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="74"/>
        <source>launch latency</source>
        <translation>下发延迟</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="87"/>
        <source>thread</source>
        <translation>线程</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="88"/>
        <source>depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="89"/>
        <source>category</source>
        <translation>类别</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="111"/>
        <source>busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="112"/>
        <source>kernel sum</source>
        <translation>kernel 时长之和</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="115"/>
        <source>Device busy</source>
        <translation>设备忙碌</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="94"/>
        <source>Call stack (innermost first, ● your code):</source>
        <translation>调用栈（最内层在前，● 为你的代码）：</translation>
    </message>
    <message>
        <location filename="../ui/timeline_input.cpp" line="145"/>
        <source>Bubble %1: %2 device idle</source>
        <translation>气泡 %1：设备空闲 %2</translation>
    </message>
</context>
</TS>
