// The accepted solution `bench/mutants.py` mutates: statistics of an array (sum, best subarray,
// inversions, gcd) and range queries (sum and maximum). About 100 lines of the loops, bounds,
// comparisons and 64-bit arithmetic contest solutions are made of.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace std;

typedef long long ll;

static ll gcd_of(ll a, ll b) {
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    while (b != 0) {
        ll t = a % b;
        a = b;
        b = t;
    }
    return a;
}

// Inversions of v[lo, hi) by merge sort, sorting it.
static ll inversions(vector<ll> &v, vector<ll> &tmp, int lo, int hi) {
    if (hi - lo <= 1) return 0;
    int mid = (lo + hi) / 2;
    ll count = inversions(v, tmp, lo, mid) + inversions(v, tmp, mid, hi);
    int i = lo, j = mid, k = lo;
    while (i < mid && j < hi) {
        if (v[j] < v[i]) {
            count += mid - i;
            tmp[k++] = v[j++];
        } else {
            tmp[k++] = v[i++];
        }
    }
    while (i < mid) tmp[k++] = v[i++];
    while (j < hi) tmp[k++] = v[j++];
    for (int t = lo; t < hi; t++) v[t] = tmp[t];
    return count;
}

// The best sum of a non-empty contiguous run (Kadane).
static ll best_run(const vector<ll> &a) {
    ll best = a[0], here = a[0];
    for (size_t i = 1; i < a.size(); i++) {
        here = max(a[i], here + a[i]);
        if (here > best) best = here;
    }
    return best;
}

// A sparse table of maxima: top[k][i] is the maximum of a[i, i + 2^k).
struct Maxima {
    vector<vector<ll>> top;
    vector<int> log2;

    explicit Maxima(const vector<ll> &a) {
        int n = (int)a.size();
        log2.assign(n + 1, 0);
        for (int i = 2; i <= n; i++) log2[i] = log2[i / 2] + 1;
        top.push_back(a);
        for (int k = 1; (1 << k) <= n; k++) {
            const vector<ll> &below = top[k - 1];
            vector<ll> level(n - (1 << k) + 1);
            for (int i = 0; i + (1 << k) <= n; i++)
                level[i] = max(below[i], below[i + (1 << (k - 1))]);
            top.push_back(level);
        }
    }

    // The maximum of a[l, r], both ends included.
    ll query(int l, int r) const {
        int k = log2[r - l + 1];
        return max(top[k][l], top[k][r - (1 << k) + 1]);
    }
};

int main() {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    vector<ll> a(n), prefix(n + 1, 0);
    for (int i = 0; i < n; i++) {
        scanf("%lld", &a[i]);
        prefix[i + 1] = prefix[i] + a[i];
    }
    ll g = 0;
    for (int i = 0; i < n; i++) g = gcd_of(g, a[i]);
    vector<ll> sorted = a, tmp(n);
    ll inv = inversions(sorted, tmp, 0, n);
    printf("%lld\n%lld\n%lld\n%lld\n", prefix[n], best_run(a), inv, g);
    Maxima maxima(a);
    int q;
    if (scanf("%d", &q) != 1) return 1;
    for (int i = 0; i < q; i++) {
        int l, r;
        scanf("%d %d", &l, &r);
        l--, r--;
        printf("%lld %lld\n", prefix[r + 1] - prefix[l], maxima.query(l, r));
    }
    return 0;
}
