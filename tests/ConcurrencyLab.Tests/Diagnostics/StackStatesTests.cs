using ConcurrencyLab.Diagnostics;
using ConcurrencyLab.Measurement;
using ConcurrencyLab.Reporting;

namespace ConcurrencyLab.Tests.Diagnostics;

/// <summary>Sampled stacks, as TraceEvent names their frames (innermost first), read into a state and a call site.</summary>
public sealed class StackStatesTests
{
    private const string Dispatch = "System.Threading.ThreadPoolWorkQueue.Dispatch()";
    private const string WorkerStart = "System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart()";

    [Fact]
    public void ASleepingItem_IsSleeping_AtItsOwnMethod_ThroughThreadSleep()
    {
        var (state, api, site) = StackStates.Read(["System.Threading.Thread.Sleep(int32)", "Shop.Worker.Nap(int32)", "Shop.Worker.Run()", Dispatch, WorkerStart]);

        Assert.Equal(StackState.Sleeping, state);
        Assert.Equal("System.Threading.Thread.Sleep", api);
        Assert.Equal("Shop.Worker.Nap", site);
    }

    [Fact]
    public void AResultAwaited_IsWaiting_AtTheFrameworksPublicMethod_TheCodeCalled()
    {
        var (state, api, site) = StackStates.Read(
        [
            "System.Threading.Monitor.Wait(class System.Object,int32)",
            "System.Threading.ManualResetEventSlim.Wait(int32,value class System.Threading.CancellationToken)",
            "System.Threading.Tasks.Task.SpinThenBlockingWait(int32,value class System.Threading.CancellationToken)",
            "System.Threading.Tasks.Task.InternalWaitCore(int32,value class System.Threading.CancellationToken)",
            "System.Threading.Tasks.Task`1[System.__Canon].GetResultCore(bool)",
            "System.Threading.Tasks.Task`1[System.__Canon].get_Result()",
            "ProductService.GetProduct(int32)",
            Dispatch,
            WorkerStart,
        ]);

        Assert.Equal(StackState.Waiting, state);
        Assert.Equal("System.Threading.Tasks.Task`1[System.__Canon].get_Result", api);
        Assert.Equal("ProductService.GetProduct", site);
        Assert.Equal("Task`1.get_Result", RuntimeAccountText.Short(api!));
    }

    [Fact]
    public void ASystemCallThatMovesData_IsIo_AndASocketsOwnWaitToo_ButManagedCopyingIsRunning()
    {
        Assert.Equal(StackState.Io, StackStates.Read(["Interop+Sys.PRead(class System.Runtime.InteropServices.SafeHandle,unsigned int8*,int32,int64)", "System.IO.RandomAccess.ReadAtOffset(...)", "System.IO.FileStream.Read(...)", "Hasher.Hash(class System.String)"]).State);
        Assert.Equal(StackState.Io, StackStates.Read(["System.Threading.Monitor.Wait(class System.Object,int32)", "System.Threading.ManualResetEventSlim.Wait(int32,value class System.Threading.CancellationToken)", "System.Net.Sockets.SocketAsyncContext.Receive(...)", "System.Net.Sockets.Socket.Receive(...)", "Poller.Poll()"]).State);
        Assert.Equal(StackState.Running, StackStates.Read(["System.IO.Strategies.OSFileStreamStrategy.Read(value class System.Span`1<unsigned int8>)", "Hasher.Hash(class System.String)"]).State);
        Assert.Equal(StackState.Running, StackStates.Read(["Interop+Sys.GetTimestamp()", "Hasher.Hash(class System.String)"]).State);
    }

    [Fact]
    public void AHandlerInlinedIntoAGeneratedRequestDelegate_IsNoSite_AsAStackAllFramework()
    {
        var (state, api, site) = StackStates.Read(
            ["System.Threading.Monitor.Wait(class System.Object,int32)", "System.Threading.Tasks.Task.SpinThenBlockingWait(int32,value class System.Threading.CancellationToken)", "System.Threading.Tasks.Task.Wait()", "dynamicClass.lambda_method3(class System.Runtime.CompilerServices.Closure,class System.Object,class Microsoft.AspNetCore.Http.HttpContext)", "Microsoft.AspNetCore.Routing.EndpointMiddleware.Invoke(class Microsoft.AspNetCore.Http.HttpContext)", Dispatch, WorkerStart]);

        Assert.Equal(StackState.Waiting, state);
        Assert.Null(site);
        Assert.Equal("System.Threading.Monitor.Wait", api);
    }

    [Fact]
    public void AContendedLock_IsWaiting()
    {
        var (state, api, site) = StackStates.Read(["System.Threading.Lock.EnterAndGetCurrentThreadId()", "System.Threading.Lock.EnterScope()", "Cache.Add(int32)", "System.Threading.Thread.StartCallback()"]);

        Assert.Equal(StackState.Waiting, state);
        Assert.Equal("System.Threading.Lock.EnterScope", api);
        Assert.Equal("Cache.Add", site);
    }

    [Fact]
    public void AnIdlePoolThread_AndTheRuntimesOwnThreads_AreNotTheWorks()
    {
        Assert.Equal(StackState.Idle, StackStates.Read(["System.Threading.LowLevelLifoSemaphore.WaitNative(...)", "System.Threading.LowLevelLifoSemaphore.WaitForSignal(int32)", "System.Threading.LowLevelLifoSemaphore.Wait(int32,bool)", WorkerStart]).State);
        Assert.Equal(StackState.Runtime, StackStates.Read(["System.Threading.WaitHandle.WaitOneNoCheck(...)", "System.Threading.PortableThreadPool+GateThread.GateThreadStart()", "System.Threading.Thread.StartCallback()"]).State);

        // A pool thread inside a work item that waits is the work's, whatever it waits on.
        Assert.Equal(StackState.Waiting, StackStates.Read(["System.Threading.LowLevelLifoSemaphore.Wait(int32,bool)", "System.Threading.SemaphoreSlim.Wait(int32)", "Gate.Pass()", Dispatch, WorkerStart]).State);
    }

    [Fact]
    public void AStackAllFramework_HasNoSite_AndAnUnknownBlockReadsAsRunning()
    {
        var (state, api, site) = StackStates.Read(["System.Threading.Thread.Sleep(int32)", "System.Threading.Tasks.Task.InnerInvoke()", Dispatch, WorkerStart]);
        Assert.Equal(StackState.Sleeping, state);
        Assert.Null(site);
        Assert.Equal("System.Threading.Thread.Sleep", api);

        // Outside any work item, a stack of the framework's alone is a thread the libraries keep for themselves.
        Assert.Equal(StackState.Runtime, StackStates.Read(["Interop+Sys.WaitForSocketEvents(...)", "System.Net.Sockets.SocketAsyncEngine.EventLoop()", "System.Threading.Thread.StartCallback()"]).State);
        Assert.Equal(StackState.Runtime, StackStates.Read(["Interop+Sys.Read(...)", "System.Threading.Thread.StartCallback()"]).State);

        Assert.Equal((StackState.Running, null, null), StackStates.Read(["Shop.Spin()", Dispatch, WorkerStart]));
        Assert.Equal(StackState.Running, StackStates.Read([]).State);
    }

    [Fact]
    public void Samples_AreWeightedByTheGapToTheirThreadsNext_TheCallerApart_AndSitesRankedByTime()
    {
        const long PerMs = 1000;
        var samples = new List<StackSample>();
        for (var i = 0; i < 100; i++)
        {
            samples.Add(new StackSample(1, i * PerMs, StackState.Sleeping, "System.Threading.Thread.Sleep", "Shop.Nap"));
            samples.Add(new StackSample(2, i * PerMs, i < 30 ? StackState.Running : StackState.Io, i < 30 ? null : "System.IO.FileStream.Read", i < 30 ? null : "Shop.Load"));
            samples.Add(new StackSample(3, i * PerMs, StackState.Waiting, "System.Threading.Tasks.Task.WaitAll", "Shop.Main"));
        }

        // Thread 1 went unsampled for 50 ms once while thread 4 was sampled: its sample there stands for at most
        // four intervals.
        samples.Add(new StackSample(1, 150 * PerMs, StackState.Sleeping, "System.Threading.Thread.Sleep", "Shop.Nap"));
        samples.Add(new StackSample(4, 120 * PerMs, StackState.Idle, null, null));

        // Thread 4 ran one item among idle waits: its one sample stands for the gap to its next, idle, sample, and the
        // idle ones for nothing.
        samples.Add(new StackSample(4, 0, StackState.Idle, null, null));
        samples.Add(new StackSample(4, 50 * PerMs, StackState.Running, null, null));
        samples.Add(new StackSample(4, 51 * PerMs, StackState.Idle, null, null));
        samples.Add(new StackSample(4, 300 * PerMs, StackState.Idle, null, null));

        var time = ThreadSamples.Tally(samples, ticksPerSecond: 1000 * PerMs, caller: 3)!;

        Assert.Equal(1, time.IntervalMs);
        Assert.Equal(new ThreadStatesOf(31, 0, 104, 70), ThreadStatesOf.From(time.Work));
        Assert.Equal(302, time.Samples);
        Assert.Equal(new ThreadStatesOf(0, 100, 0, 0), ThreadStatesOf.From(time.Caller!));
        Assert.Equal(["sleeping", "io"], time.Sites.Select(s => s.State));
        Assert.Equal(("Shop.Nap", 104.0, 101), (time.Sites[0].Site, time.Sites[0].Ms, time.Sites[0].Samples));
        Assert.DoesNotContain(time.Sites, s => s.Site == "Shop.Main");
        Assert.Null(ThreadSamples.Tally([], 1000, caller: null));
    }

    [Fact]
    public void ThePoolsWorkers_AreToldApart_FromTheProgramsOtherThreads_AndTheirBlockedShareIsTheirOwn()
    {
        // Over 100 ms: a pool worker blocked 80 ms and running 20; a thread of the program's own running all 100; the
        // main thread (the caller) waiting. The pool's share not running is 80 of 100, whatever the others did.
        var samples = new List<StackSample>();
        for (var i = 0; i < 100; i++)
        {
            samples.Add(new StackSample(1, i, i < 80 ? StackState.Waiting : StackState.Running, i < 80 ? "System.Threading.Tasks.Task`1.GetResultCore" : null,
                i < 80 ? "Shop.Load" : null) { OnPool = true });
            samples.Add(new StackSample(2, i, StackState.Running, null, null));
            samples.Add(new StackSample(3, i, StackState.Waiting, "System.Threading.Tasks.Task.WaitAll", "Shop.Main"));
        }

        var time = ThreadSamples.Tally(samples, ticksPerSecond: 1000, caller: 3)!;

        Assert.Equal(new ThreadStatesOf(20, 80, 0, 0), ThreadStatesOf.From(time.Pool!));
        Assert.Equal(new ThreadStatesOf(120, 80, 0, 0), ThreadStatesOf.From(time.Work));
        Assert.Equal(0.8, time.PoolBlockedShare!.Value, 6);

        // With no pool worker sampled there is no pool share, rather than a 0 nobody measured.
        var none = ThreadSamples.Tally([.. samples.Where(s => !s.OnPool)], ticksPerSecond: 1000, caller: 3)!;
        Assert.Null(none.Pool);
        Assert.Null(none.PoolBlockedShare);
    }

    [Fact]
    public void AGapInWhichNoThreadWasSampled_IsTheProfilersPause_AndCountsWhole_WhileAThreadSkippedAloneGetsFourIntervals()
    {
        // Two threads wait, sampled each millisecond over 0-99 ms, except that from 40 to 70 ms the profiler sampled
        // nobody (a busy machine held up its thread), and from 80 to 95 ms it sampled thread 2 but not thread 1.
        var samples = new List<StackSample>();
        for (var t = 0; t < 100; t++)
        {
            if (t is > 40 and < 70)
            {
                continue;
            }

            if (t is < 81 or > 94)
            {
                samples.Add(new StackSample(1, t, StackState.Waiting, "System.Threading.Tasks.Task.Wait", "Shop.Join"));
            }

            samples.Add(new StackSample(2, t, StackState.Waiting, "System.Threading.Tasks.Task.Wait", "Shop.Join"));
        }

        var time = ThreadSamples.Tally(samples, ticksPerSecond: 1000, caller: null)!;

        // Thread 2: 99 ms of gaps and its last sample's one interval. Thread 1: the same but for the 15 ms from its
        // sample at 80 ms to its next at 95, which stands for 4.
        Assert.Equal(1, time.IntervalMs);
        Assert.Equal(100 + (100 - 15 + 4), time.Work.WaitingMs);
    }

    [Fact]
    public void TwoBlockingLines_InOneMethod_AreTwoSites_AndAMethodWithoutItsLine_IsAThird()
    {
        var samples = new List<StackSample>();
        for (var i = 0; i < 10; i++)
        {
            samples.Add(new StackSample(1, i, StackState.Sleeping, "System.Threading.Thread.Sleep", "Shop.Nap", new SourceLine("Shop.cs", 12)));
            samples.Add(new StackSample(2, i, StackState.Sleeping, "System.Threading.Thread.Sleep", "Shop.Nap", i < 7 ? new SourceLine("Shop.cs", 15) : null));
        }

        var sites = ThreadSamples.Tally(samples, ticksPerSecond: 1000, caller: null)!.Sites;

        Assert.Equal([("Shop.cs", 12, 10), ("Shop.cs", 15, 7), (null, null, 3)], sites.Select(s => (s.File, s.Line, s.Samples)));
    }

    [Fact]
    public void TheTimeline_SpreadsTheWorksTime_OverTheRegionsSpans_AsThreadsInEachState()
    {
        // Thread 1 sleeps the whole 120 ms region; thread 2 runs its first half and is in I/O the second; the
        // caller (3) waits throughout, which the timeline, the work's, leaves out.
        var samples = new List<StackSample>();
        for (var i = 0; i < 120; i++)
        {
            samples.Add(new StackSample(1, i, StackState.Sleeping, "System.Threading.Thread.Sleep", "Shop.Nap"));
            samples.Add(new StackSample(2, i, i < 60 ? StackState.Running : StackState.Io, null, i < 60 ? null : "Shop.Load"));
            samples.Add(new StackSample(3, i, StackState.Waiting, "System.Threading.Tasks.Task.WaitAll", "Shop.Main"));
        }

        var time = ThreadSamples.Tally(samples, ticksPerSecond: 1000, caller: 3, start: 0, end: 120)!;

        Assert.Equal((ThreadTime.Bins, 2.0), (time.Timeline.Count, time.BinMs));
        Assert.All(time.Timeline, b => Assert.Equal((1.0, 0.0), (b.Sleeping, b.Waiting)));
        Assert.All(time.Timeline.Take(30), b => Assert.Equal((1.0, 0.0), (b.Running, b.Io)));
        Assert.All(time.Timeline.Skip(30), b => Assert.Equal((0.0, 1.0), (b.Running, b.Io)));
        Assert.Equal(time.Work.SleepingMs + time.Work.RunningMs + time.Work.IoMs, time.Timeline.Sum(b => b.Total) * time.BinMs, precision: 6);
    }

    [Fact]
    public void AWaitToEnterALock_IsPutWhereItsOwnerWas_ByTheOwnersOwnSampleNearestInTime()
    {
        // Thread 2 waits for a lock from 10 ms; the runtime named thread 1 its owner. Thread 1 was at Shop.Fill
        // line 31 until 30 ms, then at line 35; thread 3 waits on a task, which no owner explains.
        var samples = new List<StackSample>();
        for (var t = 0; t < 60; t++)
        {
            // Running, so it has no blocked site: where it was is its first frame of code outside the framework.
            samples.Add(new StackSample(1, t, StackState.Running, null, null, new SourceLine("Shop.cs", t < 30 ? 31 : 35)) { Here = "Shop.Fill" });
            samples.Add(new StackSample(2, t, t < 10 ? StackState.Running : StackState.Waiting, t < 10 ? null : "System.Threading.Monitor.Enter", t < 10 ? null : "Shop.Read"));
            samples.Add(new StackSample(3, t, StackState.Waiting, "System.Threading.Tasks.Task.Wait", "Shop.Join"));
        }

        ThreadSamples.Owners(samples, [new LockWait(10, Waiter: 2, Owner: 1), new LockWait(5, Waiter: 3, Owner: 1)]);
        var sites = ThreadSamples.Tally(samples, ticksPerSecond: 1000, caller: null)!.Sites;

        var read = sites.Single(s => s.Site == "Shop.Read");
        Assert.Equal(new LockOwner("Shop.Fill", "Shop.cs", 35, 30), read.Owner);
        Assert.Null(sites.Single(s => s.Site == "Shop.Join").Owner);
        Assert.Equal(20, samples.Count(s => s.Owner is { Line.Line: 31 }));
    }

    private sealed record ThreadStatesOf(double Running, double Waiting, double Sleeping, double Io)
    {
        public static ThreadStatesOf From(ConcurrencyLab.Measurement.ThreadStates s) => new(s.RunningMs, s.WaitingMs, s.SleepingMs, s.IoMs);
    }

    [Fact]
    public void AStackWithAnUnnamedFrameWhereTheRulesLook_CannotBeReadForItsState_OneNamedThereCan()
    {
        // Between the code's own frame and the top: its state cannot be told.
        string[] unnamedCall = ["?System.Private.CoreLib", "Shop.Cart.Price(int32)", "System.Threading.ThreadPoolWorkQueue.Dispatch()"];
        Assert.True(StackStates.Unnamed(unnamedCall, StackStates.Read(unnamedCall).State));

        // Above the code's own frame only: the wait is named, so it stands.
        string[] namedCall = ["System.Threading.Monitor.Wait(class System.Object,int32)", "Shop.Cart.Price(int32)", "?System.Private.CoreLib"];
        Assert.Equal(StackState.Waiting, StackStates.Read(namedCall).State);
        Assert.False(StackStates.Unnamed(namedCall, StackState.Waiting));

        // No frame of the code's own: any unnamed frame leaves it unread; a thread known by name (the pool's gate) stands.
        Assert.True(StackStates.Unnamed(["System.Threading.Thread.Sleep(int32)", "?System.Private.CoreLib"], StackState.Sleeping));
        string[] gate = ["?System.Private.CoreLib", "System.Threading.PortableThreadPool+GateThread.GateThreadStart()"];
        Assert.Equal(StackState.Runtime, StackStates.Read(gate).State);
        Assert.False(StackStates.Unnamed(gate, StackState.Runtime));
    }
}
