// An interactor for s-nim-duel in the Kattis protocol:
//   snim_duel_interactor INPUT ANSWER FEEDBACK_DIR
// Its stdout is the program's stdin and the program's stdout its stdin. It shows S and the
// heaps, lets the program pick a side, plays a winning move when it has one (else the first
// legal move), and exits 42 when the program wins, 43 when it does not.
#include <bits/stdc++.h>
using namespace std;

static string feedback_dir;

[[noreturn]] static void verdict(int code, const string &why) {
    ofstream(feedback_dir + "/judgemessage.txt") << why << "\n";
    exit(code);
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;
    feedback_dir = argv[3];
    ifstream in(argv[1]);
    int k, l;
    in >> k;
    vector<int> takes(k);
    for (int &s : takes) in >> s;
    in >> l;
    vector<int> heaps(l);
    for (int &h : heaps) in >> h;
    int top = *max_element(heaps.begin(), heaps.end());
    vector<int> g(top + 1, 0);
    for (int h = 1; h <= top; h++) {
        vector<bool> seen(k + 2, false);
        for (int s : takes)
            if (s <= h && g[h - s] <= k) seen[g[h - s]] = true;
        while (seen[g[h]]) g[h]++;
    }
    cout << k;
    for (int s : takes) cout << " " << s;
    cout << "\n" << l;
    for (int h : heaps) cout << " " << h;
    cout << "\n" << flush;

    string side;
    if (!(cin >> side) || (side != "first" && side != "second")) verdict(43, "expected `first` or `second`");
    bool program_moves = side == "first";
    for (int turn = 1;; turn++, program_moves = !program_moves) {
        vector<pair<int, int>> legal;  // (heap, take), 1-based heap
        for (int i = 0; i < l; i++)
            for (int s : takes)
                if (s <= heaps[i]) legal.push_back({i + 1, s});
        if (program_moves) {
            long long i, s;
            if (!(cin >> i >> s)) verdict(43, "move " + to_string(turn) + ": no move");
            if (i == 0 && s == 0) verdict(43, "move " + to_string(turn) + ": the program resigned");
            if (find(legal.begin(), legal.end(), make_pair((int)i, (int)s)) == legal.end())
                verdict(43, "move " + to_string(turn) + ": illegal move");
            heaps[i - 1] -= s;
            continue;
        }
        if (legal.empty()) {
            cout << "0 0\n" << flush;
            verdict(42, "the program won");
        }
        int x = 0;
        for (int h : heaps) x ^= g[h];
        pair<int, int> move = legal[0];
        for (auto [i, s] : legal)
            if ((x ^ g[heaps[i - 1]] ^ g[heaps[i - 1] - s]) == 0) move = {i, s};
        heaps[move.first - 1] -= move.second;
        cout << move.first << " " << move.second << "\n" << flush;
    }
}
