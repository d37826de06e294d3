using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// The sending side of the poll experiment: a listener on 127.0.0.1 and one accepted socket per connection,
/// and one dedicated thread that sends each scheduled message when it is due, stamping it with the moment
/// it went out. A dedicated thread keeps the server off the thread pool the receivers are measured on.
/// </summary>
internal sealed class MessageServer : IDisposable
{
    private readonly Socket _listener;
    private readonly List<Socket> _accepted = [];
    private readonly BlockingCollection<SendJob> _jobs = [];
    private readonly CancellationTokenSource _stop = new();
    private readonly Thread _sender;

    private MessageServer(Socket listener)
    {
        _listener = listener;
        _sender = new Thread(SendLoop) { IsBackground = true, Name = "conclab poll server", Priority = ThreadPriority.AboveNormal };
        _sender.Start();
    }

    public IPEndPoint EndPoint => (IPEndPoint)_listener.LocalEndPoint!;

    /// <summary>Starts listening on 127.0.0.1 and a free port.</summary>
    public static MessageServer Listen(int backlog)
    {
        var listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            listener.Bind(new IPEndPoint(IPAddress.Loopback, 0));
            listener.Listen(backlog);
            return new MessageServer(listener);
        }
        catch
        {
            listener.Dispose();
            throw;
        }
    }

    /// <summary>Accepts the next connection; its index is the order of acceptance.</summary>
    public async Task AcceptAsync(CancellationToken cancellationToken)
    {
        var socket = await _listener.AcceptAsync(cancellationToken).ConfigureAwait(false);
        socket.NoDelay = true;
        _accepted.Add(socket);
    }

    /// <summary>
    /// Sends <paramref name="schedule"/> with <paramref name="origin"/> (a Stopwatch timestamp) as time zero.
    /// The returned job completes when the last message is out, or faults when a send fails.
    /// </summary>
    public SendJob Send(SendSchedule schedule, long origin)
    {
        var job = new SendJob(schedule, origin);
        _jobs.Add(job);
        return job;
    }

    public void Dispose()
    {
        _stop.Cancel();
        _jobs.CompleteAdding();

        // The sender waits on the stop token between messages. A send blocked on a full buffer ends once
        // the client sockets close, which PollFixture does first; the timeout covers any other case.
        _ = _sender.Join(TimeSpan.FromSeconds(5));
        foreach (var socket in _accepted)
        {
            socket.Dispose();
        }

        _listener.Dispose();
        _jobs.Dispose();
        _stop.Dispose();
    }

    private void SendLoop()
    {
        Measurement.LabThreads.EnlistCurrent();
        var frame = new byte[Frame.Size];
        try
        {
            foreach (var job in _jobs.GetConsumingEnumerable(_stop.Token))
            {
                try
                {
                    Run(job, frame);
                    job.Complete();
                }
                catch (Exception ex) when (ex is SocketException or ObjectDisposedException or OperationCanceledException)
                {
                    job.Fail(ex);
                }
            }
        }
        catch (OperationCanceledException)
        {
            // Disposed while waiting for a job.
        }
    }

    private void Run(SendJob job, byte[] frame)
    {
        var schedule = job.Schedule;
        var ticksPerMs = Stopwatch.Frequency / 1000.0;
        for (var id = 0; id < schedule.Count; id++)
        {
            var due = job.Origin + (long)(schedule.OffsetsMs[id] * ticksPerMs);
            long remaining;
            while ((remaining = due - Stopwatch.GetTimestamp()) > 0)
            {
                // Rounded up: a message may go out a fraction of a millisecond late, never early, and its stamp
                // is taken when it really goes. Waiting on the stop token lets disposal end a long gap.
                if (_stop.Token.WaitHandle.WaitOne((int)Math.Ceiling(remaining / ticksPerMs)))
                {
                    throw new OperationCanceledException("The server was stopped before its schedule was sent.");
                }
            }

            var connection = schedule.Connections[id];
            var stamp = Stopwatch.GetTimestamp();
            new Frame(id, connection, stamp).Write(frame);
            var socket = _accepted[connection];
            var sent = 0;
            while (sent < Frame.Size)
            {
                sent += socket.Send(frame, sent, Frame.Size - sent, SocketFlags.None);
            }

            job.Record(id, stamp);
        }
    }
}
