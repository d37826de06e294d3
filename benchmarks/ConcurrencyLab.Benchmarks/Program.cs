// The lab's own hot paths under BenchmarkDotNet: what the sampler costs a trial per sample, what counting the items in
// flight costs a trial, what the runtime account costs per thousand events, and what summarising, exporting and
// reading back 10,000 trials cost. On demand, never in
// CI; from the repository's root, on a machine left alone:
//
//   dotnet run -c Release --project benchmarks/ConcurrencyLab.Benchmarks -- --filter '*'
//
// BenchmarkDotNet writes its tables under BenchmarkDotNet.Artifacts/; docs/method.md keeps the figures of the last run.
using BenchmarkDotNet.Running;
using ConcurrencyLab.Benchmarks;

BenchmarkSwitcher.FromAssembly(typeof(SamplerBenchmarks).Assembly).Run(args);
