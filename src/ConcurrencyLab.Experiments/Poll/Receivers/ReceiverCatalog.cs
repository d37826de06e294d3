namespace ConcurrencyLab.Experiments.Poll.Receivers;

/// <summary>Every receiver, in the order the experiment runs and reports them: the published five, then the two done right.</summary>
internal static class ReceiverCatalog
{
    public static IReadOnlyList<Receiver> All { get; } =
    [
        new ThreadsReceiver(),
        new ThreadPoolReceiver(),
        new TaskReceiver(),
        new AwaitReceiver(),
        new ParallelReceiver(),
        new ReceiveAsyncReceiver(),
        new ChannelFanInReceiver(),
    ];

    public static Receiver? Find(string id) => All.FirstOrDefault(r => r.Id == id);
}
