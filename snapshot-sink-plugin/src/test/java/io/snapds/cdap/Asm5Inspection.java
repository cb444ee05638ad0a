package io.snapds.cdap;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Reads a class file the way CDAP 6.11's artifact inspector does: with a visitor of the ASM5
 * API, which throws {@link UnsupportedOperationException} on attributes newer than that API
 * (NestHost, NestMembers, PermittedSubclasses, Record).
 */
final class Asm5Inspection extends ClassVisitor {
  private Asm5Inspection() {
    super(Opcodes.ASM5);
  }

  static void read(byte[] classFile) {
    new ClassReader(classFile).accept(new Asm5Inspection(), ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG);
  }
}
