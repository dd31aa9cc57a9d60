// Fixture program for package booster: writes Booster team packets from the carried
// header, or prints the fields of packets read as hex. See README.md.
#include "team_communication_msg.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

template <typename T, typename = void>
struct HasVisualKick : std::false_type {};
template <typename T>
struct HasVisualKick<T, std::void_t<decltype(T::isInVisualKick)>> : std::true_type {};

template <typename T>
static void setVisualKick(T &m) {
    if constexpr (HasVisualKick<T>::value) m.isInVisualKick = true;
}

template <typename T>
static int visualKick(const T &m) {
    if constexpr (HasVisualKick<T>::value) return m.isInVisualKick; else return -1;
}

static void hexLine(const void *p, size_t n) {
    const unsigned char *b = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; i++) printf("%02x", b[i]);
    printf("\n");
}

static int writePackets(int team, int player) {
    // Zeroed storage, then the header's own initialisers (validation), then the values:
    // padding stays zero, so the bytes are deterministic.
    alignas(TeamCommunicationMsg) unsigned char buf[sizeof(TeamCommunicationMsg)];
    std::memset(buf, 0, sizeof buf);
    TeamCommunicationMsg *m = new (buf) TeamCommunicationMsg;
    m->communicationId = 4711;
    m->teamId = team;
    m->playerId = player;
    m->playerRole = 1;
    m->isAlive = true;
    m->isLead = false;
    setVisualKick(*m);
    m->ballDetected = true;
    m->ballLocationKnown = true;
    m->ballConfidence = 0.875;
    m->ballRange = 1.25;
    m->cost = 3.5;
    m->ballPosToField = Point{1.5, -0.75, 0.0};
    m->robotPoseToField.x = -2.25;
    m->robotPoseToField.y = 1.0;
    m->robotPoseToField.theta = 0.5;
    m->kickDir = -0.25;
    m->thetaRb = 1.125;
    m->cmdId = 42;
    m->cmd = 100;
    printf("# TeamCommunicationMsg, %zu bytes\n", sizeof(TeamCommunicationMsg));
    hexLine(buf, sizeof buf);

    alignas(TeamDiscoveryMsg) unsigned char dbuf[sizeof(TeamDiscoveryMsg)];
    std::memset(dbuf, 0, sizeof dbuf);
    TeamDiscoveryMsg *d = new (dbuf) TeamDiscoveryMsg;
    d->communicationId = 815;
    d->teamId = team;
    d->playerId = player;
    printf("# TeamDiscoveryMsg, %zu bytes\n", sizeof(TeamDiscoveryMsg));
    hexLine(dbuf, sizeof dbuf);
    return 0;
}

static int readPackets() {
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        std::vector<unsigned char> b;
        unsigned v;
        for (const char *p = line; isxdigit(p[0]) && isxdigit(p[1]); p += 2) {
            sscanf(p, "%2x", &v);
            b.push_back(static_cast<unsigned char>(v));
        }
        if (b.empty()) continue;
        if (b.size() == sizeof(TeamCommunicationMsg)) {
            TeamCommunicationMsg m;
            std::memcpy(static_cast<void *>(&m), b.data(), sizeof m);
            printf("msg validation=%d communicationId=%d teamId=%d playerId=%d playerRole=%d "
                   "isAlive=%d isLead=%d isInVisualKick=%d ballDetected=%d ballLocationKnown=%d "
                   "ballConfidence=%.17g ballRange=%.17g cost=%.17g ball=%.17g,%.17g,%.17g "
                   "pose=%.17g,%.17g,%.17g kickDir=%.17g thetaRb=%.17g cmdId=%d cmd=%d\n",
                   m.validation, m.communicationId, m.teamId, m.playerId, m.playerRole,
                   m.isAlive, m.isLead, visualKick(m), m.ballDetected, m.ballLocationKnown,
                   m.ballConfidence, m.ballRange, m.cost,
                   m.ballPosToField.x, m.ballPosToField.y, m.ballPosToField.z,
                   m.robotPoseToField.x, m.robotPoseToField.y, m.robotPoseToField.theta,
                   m.kickDir, m.thetaRb, m.cmdId, m.cmd);
        } else if (b.size() == sizeof(TeamDiscoveryMsg)) {
            TeamDiscoveryMsg d;
            std::memcpy(static_cast<void *>(&d), b.data(), sizeof d);
            printf("discovery validation=%d communicationId=%d teamId=%d playerId=%d\n",
                   d.validation, d.communicationId, d.teamId, d.playerId);
        } else {
            printf("size %zu\n", b.size());
        }
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && std::string(argv[1]) == "write") return writePackets(12, 3);
    if (argc == 4 && std::string(argv[1]) == "write") return writePackets(atoi(argv[2]), atoi(argv[3]));
    if (argc == 2 && std::string(argv[1]) == "read") return readPackets();
    fprintf(stderr, "usage: gen write [team player] | gen read < hex\n");
    return 2;
}
