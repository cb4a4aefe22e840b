// Placeholder until the collection readers land.
namespace tsume {}
