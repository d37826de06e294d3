// A workload of your own through every strategy the lab knows, with conclab's command line:
//
//   dotnet run -c Release                                   every default variant, at the quick scale
//   dotnet run -c Release -- --variants whenall,parallel-for@8 --repeat 3
//   dotnet run -c Release -- --wait-ms 10,30 --items 400    every variant at both waits: a sweep
//   dotnet run -c Release -- --variants all                 every strategy in every form the workload has
//   dotnet run -c Release -- list                           the variants and parameters
//
// The lab starts this program again for each trial, in a fresh process, and LabProgram.RunAsync is where such
// a child runs its trial: call it first, and do nothing before it that should happen once.
using ConcurrencyLab;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Scenarios;
using ConcurrencyLab.Workloads;
using MyWorkload;

var items = Parameter.WholeNumber("items", 200, "items in a batch", minimum: 1, maximum: 100_000, quick: 40);
var cpuMs = Parameter.Number("cpu-ms", 4, "CPU time each item spends hashing, ms", minimum: 0, maximum: 1_000);
var waitMs = new Sweep("wait-ms", [30], "how long each item waits for its reply, ms", maximum: 60_000);

var scenario = new WorkloadScenario(
    "fetch-and-hash",
    context => new FetchAndHashWorkload(context.Get(items), context.Get(cpuMs), context.Get(waitMs), context))
{
    Summary = "N items that wait for a reply, then hash it: waiting and CPU, as a service's step does",
    Parameters = [items, cpuMs],
    Sweeps = [waitMs],
    DefaultDegrees = [4, 16],
    Metrics = [FetchAndHashWorkload.PeakInFlight],

    // Once per run, in this process: how many hash rounds take a millisecond here, so every trial burns the
    // same CPU. Each trial's process reads the result (see FetchAndHashWorkload.SetUpAsync).
    SetUpRunAsync = (context, cancellationToken) => Task.FromResult<object?>(Calibration.Measure()),

    // Every item could wait at once; the CPU then needs all cores: the longer of the two.
    IdealOf = workload => ((FetchAndHashWorkload)workload).Ideal(),
};

return await LabProgram.RunAsync(args, scenario);
