// Your workload under every concurrency pattern the lab knows. Run it in Release:
//
//   dotnet run -c Release                                   every default variant at the quick scale, degrees searched
//   dotnet run -c Release -- --items 1000 --repeat 5        your batch at full size
//   dotnet run -c Release -- --variants whenall,foreach-async@16
//   dotnet run -c Release -- list                           the variants and parameters this program has
//
// The lab starts this program again for every trial, in a fresh process: LabProgram.RunAsync comes first, and
// whatever runs before it runs in every trial too. docs/workloads.md says what each piece is for.
using ConcurrencyLab;
using ConcurrencyLab.Scenarios;
using ConclabWorkload;

var items = Parameter.WholeNumber("items", 200, "items in a batch", minimum: 1, maximum: 100_000, quick: 40);
var waitMs = Parameter.WholeNumber("wait-ms", 30, "how long each item waits (a call to another service), ms", minimum: 0, maximum: 60_000);
var cpuMs = Parameter.Number("cpu-ms", 2, "CPU work each item does after its wait, ms", minimum: 0, maximum: 1_000);

return await LabProgram.RunAsync(args,
    new WorkloadScenario("workload", context => new ItemWorkload(context.Get(items), context.Get(waitMs), context.Get(cpuMs), context.Seed))
    {
        Summary = "N items that each wait, then work: replace ItemWorkload's two methods with your own code",
        Parameters = [items, waitMs, cpuMs],
    });
