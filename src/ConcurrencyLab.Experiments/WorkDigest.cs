using System.Globalization;

namespace ConcurrencyLab.Experiments;

/// <summary>
/// A fingerprint of a trial's work, 16 hexadecimal digits, that tells trials which ran different work apart within a
/// run: FNV-1a over 64 bits. It is no cryptographic hash and need not be, since nobody picks the work to collide.
/// SHA-256 did this before. Loading the cryptography library and OpenSSL for it took about 9 ms of a trial's start-up
/// (a program of its own, 25 starts of each, alternating: medians 51.3 ms with one <c>SHA256.HashData</c>, 42.5 ms
/// without).
/// </summary>
internal static class WorkDigest
{
    private const ulong Offset = 14695981039346656037;
    private const ulong Prime = 1099511628211;

    /// <summary>The digest of <paramref name="bytes"/>.</summary>
    public static string Of(ReadOnlySpan<byte> bytes)
    {
        var hash = Offset;
        foreach (var b in bytes)
        {
            hash = (hash ^ b) * Prime;
        }

        return hash.ToString("x16", CultureInfo.InvariantCulture);
    }
}
