namespace ConcurrencyLab.Experiments.Poll;

/// <summary>
/// Cuts a byte stream into <see cref="Frame"/>s, keeping a partial frame until the rest arrives. Not thread
/// safe: one connection is read by one receiver at a time.
/// </summary>
internal sealed class FrameReader
{
    private readonly byte[] _partial = new byte[Frame.Size];
    private int _partialLength;

    /// <summary>Bytes held back from an incomplete frame.</summary>
    public int Pending => _partialLength;

    /// <summary>Adds <paramref name="data"/> and appends every frame it completes to <paramref name="frames"/>.</summary>
    public void Append(ReadOnlySpan<byte> data, List<Frame> frames)
    {
        if (_partialLength > 0)
        {
            var take = Math.Min(Frame.Size - _partialLength, data.Length);
            data[..take].CopyTo(_partial.AsSpan(_partialLength));
            _partialLength += take;
            data = data[take..];
            if (_partialLength < Frame.Size)
            {
                return;
            }

            frames.Add(Frame.Read(_partial));
            _partialLength = 0;
        }

        while (data.Length >= Frame.Size)
        {
            frames.Add(Frame.Read(data));
            data = data[Frame.Size..];
        }

        data.CopyTo(_partial);
        _partialLength = data.Length;
    }
}
