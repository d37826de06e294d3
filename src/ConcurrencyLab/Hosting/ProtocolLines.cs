using System.Text;

namespace ConcurrencyLab.Hosting;

/// <summary>
/// The lines crank's agent acts on, and the guard that keeps them the lab's alone. The agent reads a job's figures
/// from the lines between one holding <c>#StartJobStatistics</c> and a last one holding <c>#EndJobStatistics</c>
/// (anywhere in the line, in any case), and follows the process a standard-error line starting <c>##ChildProcessId:</c>
/// names. Text the lab prints that came from elsewhere (a results file, a service's output, a typed argument) must
/// never make one: <see cref="Install"/> puts a guard on standard output and error that breaks every marker it sees,
/// and <see cref="Write"/> is the one way past it, for the lab's own block and announcements.
/// </summary>
internal static class ProtocolLines
{
    /// <summary>The markers, each as the guard breaks it: a space after its hashes.</summary>
    private static readonly (string Marker, string Broken)[] Markers =
    [
        ("#StartJobStatistics", "# StartJobStatistics"),
        ("#EndJobStatistics", "# EndJobStatistics"),
        ("##ChildProcessId", "## ChildProcessId"),
        ("#ChildProcessId", "# ChildProcessId"),
    ];

    // The longest end of a line that could still become a marker: one character short of the longest marker.
    private static readonly int LongestOpenTail = Markers.Max(m => m.Marker.Length) - 1;

    private static Guard? _out;
    private static Guard? _error;

    /// <summary><paramref name="text"/> with every marker broken (a space after its hashes); the rest as it was.</summary>
    public static string Neutralise(string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        if (text.IndexOf('#', StringComparison.Ordinal) < 0)
        {
            return text;
        }

        var result = new StringBuilder(text.Length + 8);
        for (var i = 0; i < text.Length;)
        {
            var matched = false;
            foreach (var (marker, broken) in Markers)
            {
                if (string.Compare(text, i, marker, 0, marker.Length, StringComparison.OrdinalIgnoreCase) == 0)
                {
                    // The hashes as given, then the space, then the word as given: only the marker's shape changes.
                    var hashes = marker.Length - marker.TrimStart('#').Length;
                    result.Append(text, i, hashes).Append(' ').Append(text, i + hashes, marker.Length - hashes);
                    i += marker.Length;
                    matched = true;
                    break;
                }
            }

            if (!matched)
            {
                result.Append(text[i]);
                i++;
            }
        }

        return result.ToString();
    }

    // The length of the longest end of text that could begin a marker the next write completes.
    private static int OpenTail(StringBuilder text)
    {
        for (var length = Math.Min(LongestOpenTail, text.Length); length > 0; length--)
        {
            var start = text.Length - length;
            if (text[start] != '#')
            {
                continue;
            }

            var tail = text.ToString(start, length);
            if (Markers.Any(m => m.Marker.StartsWith(tail, StringComparison.OrdinalIgnoreCase)))
            {
                return length;
            }
        }

        return 0;
    }

    /// <summary>Puts the guard on this process's standard output and error, once; the lab's program does it first thing.</summary>
    public static void Install()
    {
        lock (Markers)
        {
            if (_out is not null)
            {
                return;
            }

            _out = new Guard(Console.Out);
            _error = new Guard(Console.Error);
            Console.SetOut(_out);
            Console.SetError(_error);

            // An end held back in case it began a marker goes out when the process does.
            AppDomain.CurrentDomain.ProcessExit += (_, _) =>
            {
                lock (Console.Out)
                {
                    _out.FlushHeld();
                }

                lock (Console.Error)
                {
                    _error.FlushHeld();
                }
            };
        }
    }

    /// <summary>
    /// Writes <paramref name="text"/>, the lab's own protocol (its statistics block, a child's announcement), to
    /// standard output or <paramref name="error"/>, past the guard, on a line of its own, and flushes it.
    /// </summary>
    public static void Write(bool error, string text)
    {
        ArgumentNullException.ThrowIfNull(text);
        var console = error ? Console.Error : Console.Out;

        // The console's writer is synchronised on itself: holding it keeps every other write out of the line.
        lock (console)
        {
            if ((error ? _error : _out) is { } guard)
            {
                guard.WritePast(text);
            }
            else
            {
                console.Write(text);
                console.Flush();
            }
        }
    }

    /// <summary>Everything held back from standard output written out, before the last thing a job writes.</summary>
    public static void FlushAll()
    {
        lock (Console.Out)
        {
            _out?.FlushHeld();
            Console.Out.Flush();
        }
    }

    /// <summary>
    /// A writer that writes at once all but an end that could still become a marker, with every marker broken.
    /// Calls come one at a time: the console's synchronised writer wraps it.
    /// </summary>
    internal sealed class Guard(TextWriter inner) : SyncForwardingWriter(inner)
    {
        private readonly StringBuilder _pending = new();

        // Whether part of the current line is already written.
        private bool _lineOpen;

        /// <inheritdoc/>
        public override void Write(char value) => Take([value]);

        /// <inheritdoc/>
        public override void Write(string? value) => Take(value.AsSpan());

        /// <inheritdoc/>
        public override void Write(char[] buffer, int index, int count) => Take(buffer.AsSpan(index, count));

        /// <inheritdoc/>
        public override void Write(ReadOnlySpan<char> buffer) => Take(buffer);

        /// <inheritdoc/>
        public override void WriteLine() => Take(CoreNewLine);

        /// <inheritdoc/>
        public override void WriteLine(string? value)
        {
            Take(value.AsSpan());
            Take(CoreNewLine);
        }

        /// <inheritdoc/>
        public override void Flush() => Inner.Flush();

        /// <summary>Everything held written, broken where it holds a marker, and flushed.</summary>
        internal void FlushHeld()
        {
            Emit(_pending.Length);
            Inner.Flush();
        }

        /// <summary>The lab's own protocol, past the guard, starting a line of its own.</summary>
        internal void WritePast(string text)
        {
            Emit(_pending.Length);
            if (_lineOpen)
            {
                Inner.Write('\n');
            }

            Inner.Write(text);
            Inner.Flush();
            _lineOpen = text.Length > 0 && text[^1] != '\n';
        }

        private void Take(ReadOnlySpan<char> text)
        {
            // Out at once, as the console's own writer is, but for an end that could begin a marker the next write
            // completes: a marker is whole in the text this writer breaks, however the writes cut it.
            _pending.Append(text);
            Emit(_pending.Length - OpenTail(_pending));
        }

        // The first count characters held, written with their markers broken.
        private void Emit(int count)
        {
            if (count <= 0)
            {
                return;
            }

            Inner.Write(Neutralise(_pending.ToString(0, count)));
            _lineOpen = _pending[count - 1] != '\n';
            _pending.Remove(0, count);
        }
    }
}
