# Graph model for the Cap'n Proto row of the graph benchmark (mirrors schemas/graph.fbe).
@0xa924ba15ed2545df;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("cp::graph");

struct Node {
  id @0 :Int32;
  name @1 :Text;
  value @2 :Int64;
  outEdges @3 :List(Int32);
}

struct Edge {
  source @0 :Int32;
  target @1 :Int32;
  weight @2 :Int32;
}

struct Graph {
  nodes @0 :List(Node);
  edges @1 :List(Edge);
}
