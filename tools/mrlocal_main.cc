#include <iostream>

int main() {
  std::cout << "mrlocal (under construction)\n";
  return 0;
}
