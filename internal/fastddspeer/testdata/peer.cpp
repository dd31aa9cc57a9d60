// A stand-in for an rclcpp node on rmw_fastrtps_cpp, for dnetwork's tests: eProsima
// Fast DDS (Debian's libfastrtps-dev) set up the way rmw_fastrtps sets itself up, with
// the ROS names, type names and CDR that rmw_fastrtps_cpp puts on the wire. Messages
// are (de)serialised field by field with Fast CDR, as rosidl_typesupport_fastrtps_cpp
// does, from the .msg definitions written out below by hand: nothing here comes from
// dnetwork's Go code.
//
// usage: peer <domain> <profile>
//   profile  humble            rmw_fastrtps on Humble, no ROS_LOCALHOST_ONLY: Fast DDS defaults
//                              (all profiles start from FASTRTPS_DEFAULT_PROFILES_FILE, as rmw does)
//            humble-localhost  Humble with ROS_LOCALHOST_ONLY=1: UDPv4 on 127.0.0.1 only, plus SHM
//            jazzy             Jazzy, discovery range SUBNET: Fast DDS defaults
//            jazzy-localhost   Jazzy, range LOCALHOST: no multicast, initial peer 127.0.0.1 with
//                              32 participant indexes, UDPv4 plus SHM
//            peers:<n>         humble-localhost plus initial peer 127.0.0.1 with n indexes (the
//                              XML profile the docs suggest for Humble)
// Jazzy profiles also set the XCDR1 data representation and "typehash=" USER_DATA.
//
// Commands on stdin, one per line (names are the peer's own labels for endpoints):
//   sub <label> <dds topic> <type> <decoder> <qos>        decoders: gcinfo teaminfo gcdata
//                                                         motion behavior vision raw
//   pub <label> <dds topic> <type> <encoder> <qos> <robot> <period ms>   encoders: motion behavior vision
//   client <label> <service fqn> <kind>                   a service client, waiting for the service;
//                                                         kinds: get_parameters, set_parameters,
//                                                         gcmessage, get_parameters_cyclone
//   call <label> [args]                                   get_parameters(_cyclone) <names...>,
//                                                         set_parameters <name>=<int>..., gcmessage <n>
//   typehash <type> <RIHS01_...>                          USER_DATA for that type (Jazzy)
//   quit
//   qos: <reliable|besteffort>,<volatile|transient>,<depth>
// Output lines:
//   READY <participant guid> <unix ns>
//   PART <guid> <vendor> <user data hex|-> <unix ns>      a participant discovered
//   MATCH <label> <current count> <unix ns>               a reader or writer matched or unmatched
//   INCOMPAT <label> <policy id> <total> <unix ns>        refused for incompatible QoS
//   DATA <label> <canonical fields>                       a decoded sample
//   SENT <label> <canonical fields>                       what a pub wrote (once)
//   SERVICE <label> <unix ns> / NOSERVICE <label>          a client found its service, or not in 10 s
//   REPLY <label> <related writer guid> <seq> <canonical> a reply matched to our request
//   STRAY <label> <bytes> <related writer guid> <seq>     a reply sample that is not ours
//   NOREPLY <label>                                       no reply within 2 s
//   ERR <text>
// Canonical fields: every field in .msg order, nested messages flattened; integers in
// decimal, bool 0/1, float32/float64 as the hex of their bits, strings as hex ("-" when
// empty), fixed arrays as their elements, sequences as the count and the elements.

#include <fastdds/dds/domain/DomainParticipant.hpp>
#include <fastdds/dds/domain/DomainParticipantFactory.hpp>
#include <fastdds/dds/domain/DomainParticipantListener.hpp>
#include <fastdds/dds/publisher/DataWriter.hpp>
#include <fastdds/dds/publisher/DataWriterListener.hpp>
#include <fastdds/dds/publisher/Publisher.hpp>
#include <fastdds/dds/subscriber/DataReader.hpp>
#include <fastdds/dds/subscriber/DataReaderListener.hpp>
#include <fastdds/dds/subscriber/SampleInfo.hpp>
#include <fastdds/dds/subscriber/Subscriber.hpp>
#include <fastdds/dds/topic/TopicDataType.hpp>
#include <fastdds/rtps/common/WriteParams.h>
#include <fastdds/rtps/transport/UDPv4TransportDescriptor.h>
#include <fastdds/rtps/transport/shared_mem/SharedMemTransportDescriptor.h>
#include <fastrtps/utils/IPLocator.h>

#include "msgs.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace eprosima::fastdds::dds;
namespace rtps = eprosima::fastrtps::rtps;

static std::mutex out_mu;

static int64_t now_ns()
{
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

static void say(const std::string &line)
{
  std::lock_guard<std::mutex> g(out_mu);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

static std::string guid_hex(const rtps::GUID_t &g)
{
  uint8_t b[16];
  std::memcpy(b, g.guidPrefix.value, 12);
  std::memcpy(b + 12, g.entityId.value, 4);
  return hex(b, 16);
}

// ---------------------------------------------------------------------------------
// A sample as rmw_fastrtps hands it to Fast DDS: the serialised bytes, encapsulation
// header included. One opaque type per ROS type name, like rmw_fastrtps_cpp's
// TypeSupport with type objects off.

class RawType : public TopicDataType {
public:
  explicit RawType(const std::string &name)
  {
    setName(name.c_str());
    m_typeSize = 1 << 20;
    m_isGetKeyDefined = false;
    auto_fill_type_object(false);
    auto_fill_type_information(false);
  }
  bool serialize(void *data, rtps::SerializedPayload_t *payload) override
  {
    auto *v = static_cast<Bytes *>(data);
    if (v->b.size() > payload->max_size)
      return false;
    std::memcpy(payload->data, v->b.data(), v->b.size());
    payload->length = static_cast<uint32_t>(v->b.size());
    payload->encapsulation = CDR_LE;
    return true;
  }
  bool deserialize(rtps::SerializedPayload_t *payload, void *data) override
  {
    auto *v = static_cast<Bytes *>(data);
    v->b.assign(payload->data, payload->data + payload->length);
    return true;
  }
  std::function<uint32_t()> getSerializedSizeProvider(void *data) override
  {
    return [data]() { return static_cast<uint32_t>(static_cast<Bytes *>(data)->b.size()); };
  }
  void *createData() override { return new Bytes(); }
  void deleteData(void *data) override { delete static_cast<Bytes *>(data); }
  bool getKey(void *, rtps::InstanceHandle_t *, bool) override { return false; }
};

// ---------------------------------------------------------------------------------
// The participant, as rmw_fastrtps creates it, and its endpoints.

static DomainParticipant *participant;
static Publisher *publisher;
static Subscriber *subscriber;
static bool jazzy;
static std::map<std::string, std::string> type_hashes; // type name -> "RIHS01_..." (Jazzy)
static std::map<std::string, Topic *> topics;

static Topic *topic(const std::string &name, const std::string &type)
{
  auto it = topics.find(name);
  if (it != topics.end())
    return it->second;
  TypeSupport ts(new RawType(type));
  if (participant->find_type(type) == nullptr && ts.register_type(participant) != ReturnCode_t::RETCODE_OK) {
    say("ERR register type " + type);
    return nullptr;
  }
  Topic *t = participant->create_topic(name, type, TOPIC_QOS_DEFAULT);
  if (t == nullptr)
    say("ERR create topic " + name);
  topics[name] = t;
  return t;
}

struct QosSpec {
  bool reliable = true, transient = false;
  int depth = 10;
};

static bool parse_qos(const std::string &s, QosSpec &q)
{
  std::istringstream in(s);
  std::string rel, dur, depth;
  if (!std::getline(in, rel, ',') || !std::getline(in, dur, ',') || !std::getline(in, depth, ','))
    return false;
  q.reliable = rel == "reliable";
  q.transient = dur == "transient";
  q.depth = std::stoi(depth);
  return true;
}

template <typename Q>
static void ros_qos(Q &qos, const QosSpec &q, const std::string &type, const std::string &extra_user_data)
{
  qos.reliability().kind = q.reliable ? RELIABLE_RELIABILITY_QOS : BEST_EFFORT_RELIABILITY_QOS;
  qos.durability().kind = q.transient ? TRANSIENT_LOCAL_DURABILITY_QOS : VOLATILE_DURABILITY_QOS;
  qos.history().kind = KEEP_LAST_HISTORY_QOS;
  qos.history().depth = q.depth;
  qos.endpoint().history_memory_policy = rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
  qos.data_sharing().off();
  std::string ud = extra_user_data;
  if (jazzy && type_hashes.count(type))
    ud += "typehash=" + type_hashes[type] + ";";
  if (!ud.empty())
    qos.user_data().setValue(std::vector<uint8_t>(ud.begin(), ud.end()));
}

class Endpoints : public DataReaderListener, public DataWriterListener {
public:
  explicit Endpoints(std::string label) : label_(std::move(label)) {}
  void on_subscription_matched(DataReader *, const SubscriptionMatchedStatus &st) override
  {
    say("MATCH " + label_ + " " + std::to_string(st.current_count) + " " + std::to_string(now_ns()));
  }
  void on_publication_matched(DataWriter *, const PublicationMatchedStatus &st) override
  {
    say("MATCH " + label_ + " " + std::to_string(st.current_count) + " " + std::to_string(now_ns()));
  }
  void on_requested_incompatible_qos(DataReader *, const RequestedIncompatibleQosStatus &st) override
  {
    say("INCOMPAT " + label_ + " " + std::to_string(st.last_policy_id) + " " + std::to_string(st.total_count) + " " + std::to_string(now_ns()));
  }
  void on_offered_incompatible_qos(DataWriter *, const OfferedIncompatibleQosStatus &st) override
  {
    say("INCOMPAT " + label_ + " " + std::to_string(st.last_policy_id) + " " + std::to_string(st.total_count) + " " + std::to_string(now_ns()));
  }

protected:
  std::string label_;
};

// A subscription printing each decoded sample.
class Sub : public Endpoints {
public:
  Sub(std::string label, std::string decoder) : Endpoints(std::move(label)), decoder_(std::move(decoder)) {}
  void on_data_available(DataReader *r) override
  {
    Bytes b;
    SampleInfo si;
    while (r->take_next_sample(&b, &si) == ReturnCode_t::RETCODE_OK) {
      if (!si.valid_data)
        continue;
      std::string text;
      if (decoder_ == "raw")
        say("DATA " + label_ + " " + hex(b.b.data(), b.b.size()));
      else if (decode(decoder_, b.b, 0, text))
        say("DATA " + label_ + text);
      else
        say("ERR " + label_ + " " + text);
    }
  }

private:
  std::string decoder_;
};

static std::vector<std::unique_ptr<Endpoints>> listeners;
static std::atomic<bool> stopping{false};
static std::vector<std::thread> threads;

static void cmd_sub(std::istringstream &in)
{
  std::string label, name, type, decoder, qs;
  QosSpec q;
  if (!(in >> label >> name >> type >> decoder >> qs) || !parse_qos(qs, q)) {
    say("ERR usage: sub <label> <topic> <type> <decoder> <qos>");
    return;
  }
  Topic *t = topic(name, type);
  if (t == nullptr)
    return;
  DataReaderQos qos = subscriber->get_default_datareader_qos();
  ros_qos(qos, q, type, "");
  if (jazzy) {
    qos.type_consistency().representation.clear();
    qos.type_consistency().representation.m_value.push_back(XCDR_DATA_REPRESENTATION);
  }
  listeners.emplace_back(new Sub(label, decoder));
  if (subscriber->create_datareader(t, qos, listeners.back().get(), StatusMask::all()) == nullptr)
    say("ERR create reader " + label);
}

static DataWriterQos writer_qos(const QosSpec &q, const std::string &type, const std::string &user_data)
{
  DataWriterQos qos = publisher->get_default_datawriter_qos();
  ros_qos(qos, q, type, user_data);
  qos.publish_mode().kind = eprosima::fastrtps::SYNCHRONOUS_PUBLISH_MODE;
  if (jazzy) {
    qos.representation().clear();
    qos.representation().m_value.push_back(XCDR_DATA_REPRESENTATION);
  }
  return qos;
}

static void cmd_pub(std::istringstream &in)
{
  std::string label, name, type, encoder, qs;
  int robot = 0, period = 0;
  QosSpec q;
  if (!(in >> label >> name >> type >> encoder >> qs >> robot >> period) || !parse_qos(qs, q) || !encoders.count(encoder)) {
    say("ERR usage: pub <label> <topic> <type> <motion|behavior|vision> <qos> <robot> <period ms>");
    return;
  }
  Topic *t = topic(name, type);
  if (t == nullptr)
    return;
  listeners.emplace_back(new Endpoints(label));
  DataWriter *w = publisher->create_datawriter(t, writer_qos(q, type, ""), listeners.back().get(), StatusMask::all());
  if (w == nullptr) {
    say("ERR create writer " + label);
    return;
  }
  std::string text;
  auto enc = encoders.at(encoder);
  Bytes sample = encode([&](Cdr &c, Out &o) { Enc e{c, o}; enc(e, robot); }, text);
  say("SENT " + label + text);
  threads.emplace_back([w, sample, period]() mutable {
    while (!stopping) {
      w->write(&sample);
      std::this_thread::sleep_for(std::chrono::milliseconds(period));
    }
  });
}

// A client of a ROS service on rmw_fastrtps (or, for the "_cyclone" kinds, a Fast DDS
// client that frames requests as rmw_cyclonedds does and says so with clientid=).
struct Client : Endpoints {
  explicit Client(std::string label) : Endpoints(std::move(label)) {}
  std::string kind;
  DataWriter *req = nullptr;
  DataReader *rep = nullptr;
};

static std::map<std::string, Client *> clients;

static std::map<std::string, std::string> service_types = {
  {"get_parameters", "rcl_interfaces::srv::dds_::GetParameters_"},
  {"get_parameters_cyclone", "rcl_interfaces::srv::dds_::GetParameters_"},
  {"set_parameters", "rcl_interfaces::srv::dds_::SetParameters_"},
  {"gcmessage", "dmsgs::srv::dds_::GCMessage_"},
};

// client <label> <service> <kind>: a service client's request writer and reply reader,
// waiting (up to 10 s) for a service as rclcpp's wait_for_service does: both matched.
static void cmd_client(std::istringstream &in)
{
  std::string label, service, kind;
  if (!(in >> label >> service >> kind) || !service_types.count(kind)) {
    say("ERR usage: client <label> <service> <get_parameters|get_parameters_cyclone|set_parameters|gcmessage>");
    return;
  }
  const std::string &base = service_types[kind];
  Topic *tq = topic("rq" + service + "Request", base + "Request_");
  Topic *tr = topic("rr" + service + "Reply", base + "Response_");
  if (tq == nullptr || tr == nullptr)
    return;
  auto *cl = new Client(label);
  listeners.emplace_back(cl);
  cl->kind = kind;
  QosSpec q; // rmw_qos_profile_services_default: reliable, volatile, keep last 10
  std::string id = kind == "get_parameters_cyclone" ? "clientid=1.f.fa.57.dd.5.0.0.0.0.0.0.0.0.0.1;" : "";
  DataReaderQos rq = subscriber->get_default_datareader_qos();
  ros_qos(rq, q, base + "Response_", id);
  cl->rep = subscriber->create_datareader(tr, rq, cl, StatusMask::all());
  cl->req = publisher->create_datawriter(tq, writer_qos(q, base + "Request_", id), cl, StatusMask::all());
  if (cl->rep == nullptr || cl->req == nullptr) {
    say("ERR create client " + label);
    return;
  }
  clients[label] = cl;
  for (int k = 0; k < 1000; k++) {
    PublicationMatchedStatus pm;
    SubscriptionMatchedStatus sm;
    cl->req->get_publication_matched_status(pm);
    cl->rep->get_subscription_matched_status(sm);
    if (pm.current_count > 0 && sm.current_count > 0) {
      say("SERVICE " + label + " " + std::to_string(now_ns()));
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  say("NOSERVICE " + label);
}

// call <label> [args]: one request of the client, and its reply within 2 s.
static void cmd_call(std::istringstream &in)
{
  std::string label;
  in >> label;
  if (!clients.count(label)) {
    say("ERR call of unknown client " + label);
    return;
  }
  Client *cl = clients[label];
  const std::string &kind = cl->kind;
  std::vector<std::string> args;
  for (std::string a; in >> a;)
    args.push_back(a);
  bool cyclone = kind == "get_parameters_cyclone";
  std::string decoder = cyclone ? "get_parameters" : kind;
  const uint64_t cyclone_guid = 0x0123456789abcdefULL;
  const int64_t cyclone_seq = 42;
  std::string sent;
  Bytes request = encode([&](Cdr &c, Out &o) {
    Enc e{c, o};
    if (cyclone) {
      c << cyclone_guid << cyclone_seq;
    }
    if (kind == "gcmessage") {
      e.u8(static_cast<uint8_t>(std::stoi(args.empty() ? "0" : args[0])));
    } else if (kind == "set_parameters") {
      e.len(static_cast<uint32_t>(args.size()));
      for (auto &a : args) {
        auto eq = a.find('=');
        e.str(a.substr(0, eq));
        // ParameterValue: type 2 (integer) and the integer, every other field empty.
        e.u8(2); e.b(false); c << static_cast<int64_t>(std::stoll(a.substr(eq + 1))); e.f64(0); e.str("");
        for (int k = 0; k < 5; k++) e.len(0);
      }
    } else {
      e.len(static_cast<uint32_t>(args.size()));
      for (auto &a : args) e.str(a);
    }
  }, sent);
  rtps::WriteParams wp;
  // rmw_fastrtps: the request says which reader takes the reply.
  wp.related_sample_identity().writer_guid() = cl->rep->guid();
  if (!cl->req->write(&request, wp)) {
    say("ERR write request " + label);
    return;
  }
  rtps::GUID_t req_guid = cl->req->guid();
  rtps::SequenceNumber_t req_seq = wp.sample_identity().sequence_number();
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  bool got = false;
  while (std::chrono::steady_clock::now() < deadline && !got) {
    Bytes b;
    SampleInfo si;
    if (cl->rep->take_next_sample(&b, &si) != ReturnCode_t::RETCODE_OK) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      continue;
    }
    if (!si.valid_data)
      continue;
    const rtps::SampleIdentity &rel = si.related_sample_identity;
    std::string text;
    size_t skip = 0;
    bool ours;
    if (cyclone) {
      uint64_t g = 0;
      int64_t s = 0;
      if (b.b.size() >= 20) {
        std::memcpy(&g, b.b.data() + 4, 8);
        std::memcpy(&s, b.b.data() + 12, 8);
      }
      ours = g == cyclone_guid && s == cyclone_seq;
      skip = 16;
    } else {
      // rmw_fastrtps' __rmw_take_response: the reply names our reader or writer.
      ours = (rel.writer_guid() == cl->rep->guid() || rel.writer_guid() == req_guid) && rel.sequence_number() == req_seq;
    }
    std::string rel_text = guid_hex(rel.writer_guid()) + " " + std::to_string(rel.sequence_number().to64long());
    if (!ours) {
      say("STRAY " + label + " " + std::to_string(b.b.size()) + " " + rel_text);
      continue;
    }
    if (decode(decoder, b.b, skip, text))
      say("REPLY " + label + " " + rel_text + text);
    else
      say("ERR " + label + " reply: " + text);
    got = true;
  }
  if (!got)
    say("NOREPLY " + label);
}

class PartListener : public DomainParticipantListener {
public:
  void on_participant_discovery(DomainParticipant *, rtps::ParticipantDiscoveryInfo &&info) override
  {
    if (info.status != rtps::ParticipantDiscoveryInfo::DISCOVERED_PARTICIPANT)
      return;
    const auto &ud = info.info.m_userData;
    char vendor[8];
    std::snprintf(vendor, sizeof vendor, "%02x.%02x", info.info.m_VendorId[0], info.info.m_VendorId[1]);
    say("PART " + guid_hex(info.info.m_guid) + " " + vendor + " " + hex(ud.data(), ud.size()) + " " + std::to_string(now_ns()));
  }
};

int main(int argc, char **argv)
{
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <domain> <profile>\n", argv[0]);
    return 2;
  }
  int domain = std::atoi(argv[1]);
  std::string profile = argv[2];
  jazzy = profile.rfind("jazzy", 0) == 0;

  // As rmw_fastrtps: the XML profiles (FASTRTPS_DEFAULT_PROFILES_FILE) first.
  DomainParticipantFactory::get_instance()->load_profiles();
  DomainParticipantQos pq = DomainParticipantFactory::get_instance()->get_default_participant_qos();
  auto udp = std::make_shared<eprosima::fastdds::rtps::UDPv4TransportDescriptor>();
  auto shm = std::make_shared<eprosima::fastdds::rtps::SharedMemTransportDescriptor>();
  if (profile == "humble-localhost" || profile.rfind("peers:", 0) == 0) {
    // rmw_fastrtps (Humble) with ROS_LOCALHOST_ONLY=1.
    pq.transport().use_builtin_transports = false;
    udp->interfaceWhiteList.emplace_back("127.0.0.1");
    pq.transport().user_transports.push_back(udp);
    pq.transport().user_transports.push_back(shm);
    if (profile.rfind("peers:", 0) == 0) {
      udp->maxInitialPeersRange = static_cast<uint32_t>(std::stoi(profile.substr(6)));
      rtps::Locator_t peer;
      rtps::IPLocator::setIPv4(peer, "127.0.0.1");
      pq.wire_protocol().builtin.initialPeersList.push_back(peer);
    }
  } else if (profile == "jazzy-localhost") {
    // rmw_fastrtps (Jazzy) with ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST.
    pq.wire_protocol().builtin.metatrafficMulticastLocatorList.clear();
    pq.wire_protocol().builtin.metatrafficUnicastLocatorList.push_back(rtps::Locator_t());
    pq.transport().use_builtin_transports = false;
    pq.transport().user_transports.push_back(shm);
    udp->maxInitialPeersRange = 32;
    pq.transport().user_transports.push_back(udp);
    rtps::Locator_t peer;
    rtps::IPLocator::setIPv4(peer, "127.0.0.1");
    pq.wire_protocol().builtin.initialPeersList.push_back(peer);
  } else if (profile != "humble" && profile != "jazzy") {
    std::fprintf(stderr, "unknown profile %s\n", profile.c_str());
    return 2;
  }
  pq.wire_protocol().builtin.readerHistoryMemoryPolicy = rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
  pq.wire_protocol().builtin.writerHistoryMemoryPolicy = rtps::PREALLOCATED_WITH_REALLOC_MEMORY_MODE;
  std::string enclave = "enclave=/;";
  pq.user_data().setValue(std::vector<uint8_t>(enclave.begin(), enclave.end()));
  pq.name("/");

  PartListener pl;
  StatusMask mask = StatusMask::none();
  participant = DomainParticipantFactory::get_instance()->create_participant(domain, pq, &pl, mask);
  if (participant == nullptr) {
    say("ERR create participant");
    return 1;
  }
  publisher = participant->create_publisher(PUBLISHER_QOS_DEFAULT);
  subscriber = participant->create_subscriber(SUBSCRIBER_QOS_DEFAULT);
  say("READY " + guid_hex(participant->guid()) + " " + std::to_string(now_ns()));

  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "sub")
      cmd_sub(in);
    else if (cmd == "pub")
      cmd_pub(in);
    else if (cmd == "client")
      cmd_client(in);
    else if (cmd == "call")
      cmd_call(in);
    else if (cmd == "typehash") {
      std::string type, hash;
      in >> type >> hash;
      type_hashes[type] = hash;
    } else if (cmd == "quit")
      break;
    else if (!cmd.empty())
      say("ERR unknown command " + cmd);
  }
  stopping = true;
  for (auto &t : threads)
    t.join();
  participant->delete_contained_entities();
  DomainParticipantFactory::get_instance()->delete_participant(participant);
  return 0;
}
