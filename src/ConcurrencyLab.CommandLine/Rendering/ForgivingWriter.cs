namespace ConcurrencyLab.CommandLine.Rendering;

/// <summary>
/// Standard output or error that may be gone: closed by the shell (<c>&gt;&amp;-</c>), a terminal that was closed, a
/// pipe whose reader left. A write that fails is dropped, and so is every one after it, so what was measured is still
/// written to its files and the exit code still says what happened to it; the run's own files are the record, the
/// console only its echo.
/// </summary>
internal sealed class ForgivingWriter(TextWriter inner) : Hosting.SyncForwardingWriter(inner)
{
    private static int _installed;
    private volatile bool _lost;

    /// <summary>Puts forgiving writers in place of the console's standard output and error, once a process.</summary>
    public static void Install()
    {
        // Console.SetOut wraps what it is given in a synchronised writer, so the console's writer is never this type
        // to ask: once a process is the rule.
        if (Interlocked.Exchange(ref _installed, 1) == 0)
        {
            Console.SetOut(new ForgivingWriter(Console.Out));
            Console.SetError(new ForgivingWriter(Console.Error));
        }
    }

    /// <inheritdoc/>
    public override void Write(char value) => Try(() => Inner.Write(value));

    /// <inheritdoc/>
    public override void Write(string? value) => Try(() => Inner.Write(value));

    /// <inheritdoc/>
    public override void Write(char[] buffer, int index, int count) => Try(() => Inner.Write(buffer, index, count));

    /// <inheritdoc/>
    public override void Write(ReadOnlySpan<char> buffer)
    {
        var copy = buffer.ToString();
        Try(() => Inner.Write(copy));
    }

    /// <inheritdoc/>
    public override void WriteLine(string? value) => Try(() => Inner.WriteLine(value));

    /// <inheritdoc/>
    public override void WriteLine() => Try(Inner.WriteLine);

    /// <inheritdoc/>
    public override void Flush() => Try(Inner.Flush);

    private void Try(Action write)
    {
        if (_lost)
        {
            return;
        }

        try
        {
            write();
        }
        catch (Exception ex) when (ex is IOException or ObjectDisposedException or UnauthorizedAccessException)
        {
            _lost = true;
        }
    }
}
