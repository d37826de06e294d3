using System.Text;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// A writer in front of another that does its work synchronously: every asynchronous write and flush is the
/// synchronous one, done at once. A subclass says what a write and a flush do; the rest routes to them.
/// </summary>
internal abstract class SyncForwardingWriter(TextWriter inner) : TextWriter
{
    /// <summary>The writer this one is in front of.</summary>
    protected TextWriter Inner { get; } = inner;

    /// <inheritdoc/>
    public override Encoding Encoding => Inner.Encoding;

    /// <inheritdoc/>
    public override IFormatProvider FormatProvider => Inner.FormatProvider;

    /// <inheritdoc/>
#pragma warning disable CS8765 // The base allows null to mean the default line end.
    public override string NewLine
    {
        get => Inner.NewLine;
        set => Inner.NewLine = value;
    }
#pragma warning restore CS8765

    /// <inheritdoc/>
    public override Task WriteAsync(char value)
    {
        Write(value);
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task WriteAsync(string? value)
    {
        Write(value);
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task WriteAsync(char[] buffer, int index, int count)
    {
        Write(buffer, index, count);
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task WriteAsync(ReadOnlyMemory<char> buffer, CancellationToken cancellationToken = default)
    {
        Write(buffer.Span);
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task WriteLineAsync(string? value)
    {
        WriteLine(value);
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task WriteLineAsync(ReadOnlyMemory<char> buffer, CancellationToken cancellationToken = default)
    {
        Write(buffer.Span);
        WriteLine();
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task FlushAsync()
    {
        Flush();
        return Task.CompletedTask;
    }

    /// <inheritdoc/>
    public override Task FlushAsync(CancellationToken cancellationToken)
    {
        Flush();
        return Task.CompletedTask;
    }
}
