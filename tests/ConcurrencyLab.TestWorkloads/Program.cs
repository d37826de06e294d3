// Workloads for the integration tests, each made to make the runtime report something known:
//   lock   two items on two threads; the first holds a lock for --hold-ms while the second waits for it
//   sleep  items that each wait --wait-ms: by blocking a thread in the sync form, by a timer in the task form;
//          with --collect, each first runs a full garbage collection
//   result items that each block on a task's Result for --wait-ms (sync over async), in the sync form
//   socket items that each block in a synchronous read from a loopback server that answers after --wait-ms
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

return await LabProgram.RunAsync(args, lockScenario, sleepScenario, resultScenario, socketScenario, unevenScenario);
