// Workloads for the integration tests, each made to make the runtime report something known:
//   lock   two items on two threads; the first holds a lock for --hold-ms while the second waits for it
//   sleep  items that each wait --wait-ms: by blocking a thread in the sync form, by a timer in the task form;
//          with --collect, each first runs a full garbage collection
//   result items that each block on a task's Result for --wait-ms (sync over async), in the sync form
//   socket items that each block in a synchronous read from a loopback server that answers after --wait-ms
// and, for the truth table of the lab's reasons, the cause-* family: workloads whose cause of slowness is known by
// construction (Causes.cs), each named for it.
using ConcurrencyLab;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.TestWorkloads;
using ConcurrencyLab.Workloads;

var holdMs = Parameter.WholeNumber("hold-ms", 400, "how long the first item holds the lock, ms", minimum: 1, maximum: 60_000);
var items = Parameter.WholeNumber("items", 24, "items in the batch", minimum: 1, maximum: 10_000);
var waitMs = Parameter.WholeNumber("wait-ms", 300, "how long each item waits, ms", minimum: 0, maximum: 60_000);
var collect = Parameter.Switch("collect", "each item starts with a full garbage collection, so the runtime reports one at once");

var lockScenario = new WorkloadScenario("lock", context => new HeldLockWorkload(context.Get(holdMs)))
{
    Summary = "a lock held by one item while another waits for it",
    Parameters = [holdMs],
};

var sleepScenario = new WorkloadScenario("sleep", context => new SleepWorkload(context.Get(items), context.Get(waitMs), context.Get(collect)))
{
    Summary = "items that each wait: blocking a thread, or on a timer",
    Parameters = [items, waitMs, collect],
};

var resultScenario = new WorkloadScenario("result", context => new ResultWorkload(context.Get(items), context.Get(waitMs)))
{
    Summary = "items that each block on a task's Result until a timer completes it",
    Parameters = [items, waitMs],
};

var socketScenario = new WorkloadScenario("socket", context => new SocketReadWorkload(context.Get(items), context.Get(waitMs)))
{
    Summary = "items that each block in a synchronous socket read until a loopback server answers",
    Parameters = [items, waitMs],
};

var unevenScenario = new WorkloadScenario("uneven", context => new UnevenFormsWorkload(context.Get(items), context.Get(waitMs)))
{
    Summary = "items whose blocking form sleeps three times as long as their task form waits",
    Parameters = [items, waitMs],
};

var cpuMs = Parameter.Number("cpu-ms", 4, "each item's CPU work, ms", minimum: 0, maximum: 10_000);
var limit = Parameter.WholeNumber("limit", 4, "how many items the downstream serves at once", minimum: 1, maximum: 10_000);

WorkloadScenario Cause(string name, string summary, Func<WorkloadContext, Workload> create, params Parameter[] parameters) =>
    new(name, create) { Summary = summary, Parameters = [items, .. parameters] };

Scenario[] causes =
[
    Cause("cause-sleep", "blocking sleeps: pool threads held by the items", c => new BlockingSleepWorkload(c.Get(items), c.Get(waitMs)), waitMs),
    Cause("cause-cpu", "pure CPU: the cores bind", c => new PureCpuWorkload(c.Get(items), c.Get(cpuMs)), cpuMs),
    Cause("cause-lock", "a wait, then CPU under one shared lock: a limit of (wait + CPU) / CPU inside the items", c => new SharedLockWorkload(c.Get(items), c.Get(waitMs), c.Get(cpuMs)), waitMs, cpuMs),
    Cause("cause-limit", "waits behind a semaphore of --limit slots: a limit of --limit inside the items", c => new DownstreamLimitWorkload(c.Get(items), c.Get(waitMs), c.Get(limit)), waitMs, limit),
    Cause("cause-sync-over-async", "blocking on an async method whose continuation needs a pool thread", c => new SyncOverAsyncWorkload(c.Get(items), c.Get(waitMs)), waitMs),
    Cause("cause-caller", "CPU before the first await: the calling thread's own CPU", c => new CpuBeforeAwaitWorkload(c.Get(items), c.Get(waitMs), c.Get(cpuMs)), waitMs, cpuMs),
    Cause("cause-mix", "CPU, then a blocking sleep or an awaited timer", c => new CpuThenWaitWorkload(c.Get(items), c.Get(waitMs), c.Get(cpuMs)), waitMs, cpuMs),
];

return await LabProgram.RunAsync(args, [lockScenario, sleepScenario, resultScenario, socketScenario, unevenScenario, .. causes]);
