// A checker for s-nim-move in the Kattis output-validator protocol:
//   snim_move_checker INPUT ANSWER FEEDBACK_DIR < program_output
// Exit 42 accepts, 43 rejects with the reason in FEEDBACK_DIR/judgemessage.txt.
// It decides from the rules alone (the answer file is not needed: any winning move is right).
#include <bits/stdc++.h>
using namespace std;

static string feedback_dir;

[[noreturn]] static void reject(const string &why) {
    ofstream(feedback_dir + "/judgemessage.txt") << why << "\n";
    exit(43);
}

int main(int argc, char **argv) {
    if (argc < 4) return 1;  // not called by a judge: neither 42 nor 43
    feedback_dir = argv[3];
    ifstream in(argv[1]);
    int k;
    in >> k;
    vector<int> takes(k);
    for (int &s : takes) in >> s;
    // g[h] = mex of g[h - s] over the takes s <= h: heaps are at most 10000.
    vector<int> g(10001, 0);
    for (int h = 1; h <= 10000; h++) {
        vector<bool> seen(k + 2, false);
        for (int s : takes)
            if (s <= h && g[h - s] <= k) seen[g[h - s]] = true;
        while (seen[g[h]]) g[h]++;
    }
    int m;
    in >> m;
    string line;
    for (int position = 1; position <= m; position++) {
        int l;
        in >> l;
        vector<int> heaps(l);
        int x = 0;
        for (int &h : heaps) in >> h, x ^= g[h];
        if (!getline(cin, line)) reject("line " + to_string(position) + ": missing");
        istringstream words(line);
        string first;
        words >> first;
        if (first == "lose") {
            if (x != 0) reject("line " + to_string(position) + ": `lose`, but the position is a win");
            continue;
        }
        long long i, s;
        try {
            i = stoll(first);
        } catch (...) {
            reject("line " + to_string(position) + ": expected `lose` or a move `i s`");
        }
        if (!(words >> s)) reject("line " + to_string(position) + ": a move needs `i s`");
        if (i < 1 || i > l) reject("line " + to_string(position) + ": there is no heap " + to_string(i));
        if (find(takes.begin(), takes.end(), s) == takes.end() || s > heaps[i - 1])
            reject("line " + to_string(position) + ": cannot take " + to_string(s) + " from heap " + to_string(i));
        if ((x ^ g[heaps[i - 1]] ^ g[heaps[i - 1] - s]) != 0)
            reject("line " + to_string(position) + ": the move leaves the opponent a win");
    }
    while (getline(cin, line))
        if (line.find_first_not_of(" \t\r") != string::npos) reject("extra output after the last position");
    return 42;
}
