using System.Globalization;

namespace ConcurrencyLab.Experiments.Digests;

/// <summary>
/// A fingerprint of a trial's work, 16 hexadecimal digits, that tells trials which ran different work apart within a
/// run: FNV-1a over 64 bits. It is no cryptographic hash and need not be, since nobody picks the work to collide; a
/// cryptographic one would load the cryptography library and OpenSSL into every trial's process, about 9 ms of its
/// start-up on 2 cores. It sits in a folder of its own, below every experiment that fingerprints its work.
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
