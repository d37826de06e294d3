// Your own workload through every strategy the lab knows. Each trial starts this program again in a
// fresh process; Lab.RunAsync is also where such a child runs its trial, so call it first in Main.
using ConcurrencyLab;
using ConcurrencyLab.Running;
using MyWorkload;

var options = new RunOptions
{
    Quick = true,
    Repeat = args.Contains("--full") ? 5 : 2,
    Warmup = args.Contains("--full") ? 1 : 0,
};

return await Lab.RunAsync(args, "fetch-and-hash", seed => new FetchAndHashWorkload(items: 60, seed), options);
